import Foundation
import QuakeModel
import QuakeStore
import QuakeTestSupport
import Testing

/// Usage errors that say what to do: nearest-name suggestions, stray arguments, arguments checked
/// before anything else runs, and URLs `import` cannot read.
@Suite(.waitsOnProcesses) struct CommandLineUsageTests {
    /// `(arguments, status, the first line of stderr)`.
    static let cases: [([String], Int32, String)] = [
        (["lst"], 64, "Error: Unknown command 'lst'. Did you mean 'list'?"),
        (["lsit"], 64, "Error: Unknown command 'lsit'. Did you mean 'list'?"),
        (["help", "scenez"], 64, "Error: Unknown command 'scenez'. Did you mean 'scenes'?"),
        (["frobnicate"], 64, "Error: Unknown command 'frobnicate'."),
        (["list", "--sortt", "time"], 64, "Error: Unknown option '--sortt'. Did you mean '--sort'?"),
        (["list", "--min-mag", "2"], 64, "Error: Unknown option '--min-mag'. Did you mean '--min-magnitude'?"),
        (["delete", "--al"], 64, "Error: Unknown option '--al'. Did you mean '--all'?"),
        (["--scen", "x"], 64, "Error: Unknown option '--scen'. Did you mean '--scene'?"),
        (["info", "extra"], 64, "Error: Unexpected argument 'extra'. 'info' takes no arguments."),
        (["info", "--state-dir", "X", "extra"], 64, "Error: Unexpected argument 'extra'. 'info' takes no arguments."),
        (["scenes", "list", "extra"], 64, "Error: Unexpected argument 'extra'."),
        (["import", "a.geojson", "b.geojson"], 64, "Error: Unexpected argument 'b.geojson'. 'import' takes one argument, <path>."),
        (["refresh", "all_day", "all_week"], 64, "Error: Unexpected argument 'all_week'. 'refresh' takes one argument, <feed>."),
        (["--scene", "../x"], 64, "Error: The scene ID \"../x\" is not valid: use 1 to 64 letters, digits, '.', '_' or '-' (not '.' or '..')."),
        (["import", "ftp://example.org/all_day.geojson"], 64,
         "Error: 'ftp' URLs cannot be imported; use an http, https or file URL, or download the feed and import its path."),
        // Options before a command are the command's: one it does not take is refused by name.
        (["--scene", "x", "info"], 64, "Error: Unknown option '--scene'."),
        (["--generate-completion-script", "tcsh"], 64,
         "Error: 'tcsh' is not a shell quaketui writes completions for; use bash, zsh or fish."),
        // stats prints no distances: --near alone would be ignored, so it is refused, as watch does.
        (["stats", "--near", "35.68,139.69"], 64,
         "Error: --near does nothing in stats without --radius or --intensity; add --radius KM to count the quakes within KM kilometres of that point, or drop --near."),
        (["refresh", "all_weak"], 64, "Error: 'all_weak' is not a USGS summary feed. Did you mean 'all_week'?"),
        // Issue 57.4: the `:` line's number parser, with the same refusal of what a number cannot hold exactly.
        (["list", "--min-magnitude", "9999999999999999999"], 64, "Error: --min-magnitude: '9999999999999999999' has more digits "
         + "than a number can hold exactly (at most 15 significant digits, and 15 before the point); use a number such as 4.5."),
        (["list", "--near", "35.68,139.69", "--radius", "1e3"], 64, "Error: '1e3' is not a radius; use a positive number of kilometres, at most 20038."),
        // Issue 56.12: the spellings the browser and the other commands take, and what is wrong said as such.
        (["fetch", "--service", "emsx"], 64,
         "Error: 'emsx' is not a service quaketui knows (usgs, emsc, iris, ingv, geofon) nor an http(s) URL. Did you mean 'emsc'?"),
        (["list", "--near", "100,200"], 64,
         "Error: '100,200' is not a place: latitude 100 is out of range (-90…90); use LAT,LON in decimal degrees, such as 35.68,139.69."),
        (["watch", "--near", "35,200", "--radius", "10"], 64,
         "Error: '35,200' is not a place: longitude 200 is out of range (-180…180); use LAT,LON in decimal degrees, such as 35.68,139.69."),
        (["list", "--near", "north"], 64,
         "Error: 'north' is not a place; use LAT,LON in decimal degrees, such as 35.68,139.69."),
        (["delete", "--before", "soon"], 64,
         "Error: 'soon' is not a date (2024-01-01, 2024-01-01T12:00:00Z) or a span before now (30d, 12h, 2w, 10y)."),
        // status --format: a placeholder it does not know is refused, not printed as it is.
        (["status", "--format", "%m %x"], 64,
         "Error: --format: '%x' is not a placeholder; use %m, %d, %b, %i, %I, %a, %p, %c or %%."),
        (["status", "--format", "%m %"], 64,
         "Error: --format: '%' at the end is not a placeholder; use %m, %d, %b, %i, %I, %a, %p, %c or %%."),
    ]

    @Test(arguments: cases.indices)
    func usageErrorsSayWhatToDo(_ index: Int) throws {
        let (arguments, status, first) = Self.cases[index]
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        // No terminal on stdin/stdout: a bad --scene must still be a usage error, not "needs a terminal".
        let result = try QuaketuiBinary.run(arguments, stateDirectory: dir.url)
        #expect(result.status == status, "\(arguments): \(result.stderr)")
        let line = result.stderr.split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init)
        #expect(line == first, "\(arguments)")
        #expect(result.errorLines.last?.hasSuffix("--help' for more information.") == true, "\(arguments)")
        #expect(!FileManager.default.fileExists(atPath: dir.appending("quakes.sqlite").path),
                "a usage error touches nothing: \(arguments)")
    }

    /// `quaketui --state-dir DIR info`, as `git -C DIR status` is written: the same as the option after the command.
    @Test func optionsBeforeTheCommandAreTheCommands() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let before = try QuaketuiBinary.run(["--state-dir", dir.url.path, "scenes", "--json"])
        let after = try QuaketuiBinary.run(["scenes", "--json", "--state-dir", dir.url.path])
        #expect(before.status == 0, "\(before.stderr)")
        #expect(before.stdout == after.stdout && before.stdout == "{\"scenes\":[]}\n")
        try PersistentContainer(directory: dir.url).close()
        let equals = try QuaketuiBinary.run(["--state-dir=\(dir.url.path)", "info", "--json"])
        #expect(equals.status == 0, "\(equals.stderr)")
        #expect(try equals.json()["stateDirectory"] as? String == dir.url.path, "\(equals.stdout)")
    }

    @Test func versionAndHelpStillWork() throws {
        let version = try QuaketuiBinary.run(["--version"])
        #expect(version.status == 0 && version.stdout.hasPrefix("quaketui "))
        let help = try QuaketuiBinary.run(["--help"])
        #expect(help.status == 0)
        #expect(help.lines.firstIndex(of: "COMMANDS:") != nil, "\(help.stdout)")
        #expect(help.option("--generate-completion-script <shell>") == "Print a completion script for bash, zsh or fish and exit.",
                "\(help.stdout)")
        #expect(help.option("--generate-manual") == "Print the manual page (roff) and exit.", "\(help.stdout)")
    }

    @Test(.enabled(if: SharedData.isAvailable, "needs ../shared/data/usgs"))
    func anEmptyListSaysWhichFilterHidesTheQuakes() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let feed = SharedData.url("all_week-2018-06-14.geojson").path
        #expect(try QuaketuiBinary.run(["import", feed], stateDirectory: dir.url).status == 0)
        let high = try QuaketuiBinary.run(["list", "--min-magnitude", "11"], stateDirectory: dir.url)
        #expect(high.status == 0)
        #expect(high.stdout == "No quakes match among the 4,711 stored: --min-magnitude 11 (the largest stored is M 5.8). Lower --min-magnitude.\n")
        let search = try QuaketuiBinary.run(["list", "--search", "atlantis\u{1B}]0;x\u{07}"], stateDirectory: dir.url)
        #expect(search.stdout.hasPrefix("No quakes match among the 4,711 stored: no place contains 'atlantis"))
        #expect(!search.stdout.contains("\u{1B}"), "hostile search text is not echoed raw")
        #expect(search.stdout.hasSuffix("Try a shorter search.\n"))
    }
}

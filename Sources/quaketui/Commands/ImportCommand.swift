import Foundation
import QuakeFeed
import QuakeModel
import QuakeStore

/// `quaketui import PATH|URL|- [--agency NAME] [--json]`: one atomic import with a progress bar.
enum ImportCommand {
    static let spec = CommandSpec(
        name: "import",
        abstract: "Import an earthquake catalogue file, URL or standard input.",
        usage: ["import <path>|<url>|- [--agency <name>] [--json]"],
        discussion: """
            Reads USGS GeoJSON, GeoJSONP (eqfeed_callback(…);) and CSV, EMSC GeoJSON, FDSN text
            (#EventID|Time|…), QuakeML (1.2 BED or BED-RT, 1.0), or gzip of any of them, as UTF-8 or UTF-16 with a byte
            order mark; the format is recognised from the content. A GeoJSON feed whose times are
            in seconds is recognised as a whole and converted (the summary says so). Codes of
            agencies other than USGS are prefixed with the agency (emsc:…, iris:…): the agency is
            --agency NAME when given, else what the file says (a QuakeML publicID's host or
            agencyID; FDSN text's Author, else Contributor, else Catalog), else 'local'. Without a
            preferred magnitude, QuakeML events show Mww, Mwc, Mwb, Mwr, Mw first. A file whose
            every record is skipped fails and changes nothing. Quakes are merged by event code: a newer
            'updated' replaces the stored quake, an older one changes nothing, notes are kept.
            The import is all or nothing: on any error the store is left exactly as it was.
            If the store holds the bundled sample catalogue, the same transaction removes it,
            so real data never mixes with the sample; sample quakes with notes are kept as
            ordinary quakes, and the output says what was removed and kept.
            """,
        options: [
            .init(name: "agency", value: "NAME",
                  help: "The agency of every event (iris, ingv, …): codes become NAME:ID; usgs keeps them bare."),
            CommandSpec.stateDir, CommandSpec.json,
        ],
        arguments: [.init(name: "path", help: "A feed file, an http(s) or file URL, or - for standard input.",
                          completion: .file)])

    static func run(_ arguments: ParsedArguments) throws {
        guard let argument = arguments.positionals.first else {
            throw UsageError(message: "Say what to import: a file, a URL, or - for standard input.", command: spec)
        }
        if let scheme = unsupportedScheme(argument) {
            throw UsageError(message: "'\(scheme)' URLs cannot be imported; use an http, https or file URL, or download the feed and import its path.",
                             command: spec)
        }
        var agency: String?
        if let name = arguments.value("agency") {
            guard let valid = FeedAgency.validated(name) else {
                throw UsageError(message: "--agency wants a short name of letters, digits, '.' and '-' (like iris or ingv), not '\(name)'.",
                                 command: spec)
            }
            agency = valid
        }
        let writableState = try arguments.stateDirectory()
        let container = try PersistentContainer(directory: writableState.url, upgrading: SchemaUpgrade.say)
        container.preferAgencies(state: writableState)
        defer { container.close() }
        let summary = try FeedImportRun.run(FeedLocation(argument: argument), into: container, author: "import",
                                            agency: agency)
        try FeedImportRun.report(summary, json: arguments.has("json"))
    }

    /// The scheme of an argument written as a URL (`ftp://…`) that `import` cannot read, if any.
    static func unsupportedScheme(_ argument: String) -> String? {
        guard let range = argument.range(of: "://") else { return nil }
        let scheme = argument[..<range.lowerBound]
        guard let first = scheme.first, first.isASCII, first.isLetter,
              scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+.-".contains($0)) }) else { return nil }
        return ["http", "https", "file"].contains(scheme.lowercased()) ? nil : String(scheme)
    }
}

/// The shared body of `import` and `refresh`: open, import with progress on a TTY, summarize.
enum FeedImportRun {
    /// Imports `location` in one transaction that also removes the bundled sample, if the
    /// store holds it (SPEC §6: real data replaces the sample, never mixes with it), then runs
    /// `beforeCommit`, if given, in the same transaction.
    static func run(_ location: FeedLocation, into container: PersistentContainer, author: String, agency: String? = nil,
                    beforeCommit: ((WriteTransaction) throws -> Void)? = nil) throws -> ImportSummary {
        let bar = ProgressBar(label: label(location))
        defer { bar.finish() }
        container.onLockWait = WriteLockWait.say
        let reader = try location.openReader(agency: agency)
        let importer = try FeedImporter(container: container, author: author)
        return try importer.run(reader, replacingSample: true, beforeCommit: { tx in
            try beforeCommit?(tx)
        }) { bar.update($0) }
    }

    static func report(_ summary: ImportSummary, json: Bool) throws {
        if json { return try printJSON(summary) }
        print(summary.sentence)
        if let replaced = summary.sampleReplaced { print(replaced.sentence) }
        for note in summary.notes { print("  note: \(note)") }
        for reason in summary.skippedReasons { print("  skipped \(reason)") }
        if summary.skipped > summary.skippedReasons.count {
            print("  … and \(summary.skipped - summary.skippedReasons.count) more skipped")
        }
    }

    private static func label(_ location: FeedLocation) -> String {
        switch location {
        case .path(let path): URL(fileURLWithPath: path).lastPathComponent
        case .standardInput: "standard input"
        case .url(let url): url.lastPathComponent.isEmpty ? url.absoluteString : url.lastPathComponent
        }
    }
}

/// A progress bar on stderr when it is a terminal: bytes, quakes/s, ETA; nothing otherwise.
final class ProgressBar {
    private let label: String
    private let enabled = isatty(2) == 1
    private var lastDraw = Date.distantPast
    private var drawn = false

    init(label: String) { self.label = label }

    func update(_ progress: ImportProgress) {
        guard isDue else { return }
        var line = "importing \(label)  "
        if let fraction = progress.fraction {
            let width = 24, filled = Int(fraction * Double(width))
            line += "[" + String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled) + "] "
            line += String(format: "%3.0f%%  ", fraction * 100)
        }
        line += megabytes(progress.bytesRead) + (progress.totalBytes.map { "/" + megabytes($0) } ?? "") + "  "
        line += "\(CountFormat.quakes(progress.quakes))  \(CountFormat.grouped(Int(progress.quakesPerSecond)))/s"
        if let remaining = progress.remaining { line += "  ETA \(Int(remaining.rounded()))s" }
        draw(line)
    }

    /// Whether a new frame may be drawn (a terminal, and 0.1 s since the last one).
    var isDue: Bool { enabled && Date().timeIntervalSince(lastDraw) >= 0.1 }

    /// Replaces the bar's line with `line`.
    func draw(_ line: String) {
        lastDraw = Date()
        printProgressLine(line)
        drawn = true
    }

    /// Prints `text` on its own line (the bar, if drawn, is redrawn by the next update).
    func note(_ text: String) {
        finish()
        printError(text)
        lastDraw = .distantPast
    }

    func finish() {
        if drawn { printProgressLine(nil) }
        drawn = false
    }

    private func megabytes(_ bytes: Int64) -> String { String(format: "%.1f MB", Double(bytes) / 1e6) }
}

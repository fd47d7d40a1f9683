import Foundation
import QuakeTestSupport
import Testing

/// The completion scripts and the manual page, generated from the command table, checked by the
/// shells and by groff themselves.
@Suite(.waitsOnProcesses) struct CompletionScriptTests {
    static func script(_ shell: String) throws -> URL {
        let result = try QuaketuiBinary.run(["--generate-completion-script", shell])
        #expect(result.status == 0, "\(result.stderr)")
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("quaketui-\(UUID().uuidString).\(shell)")
        try Data(result.stdout.utf8).write(to: url)
        return url
    }

    static func installed(_ name: String) -> URL? {
        ["/usr/bin", "/bin", "/usr/local/bin"].map { URL(fileURLWithPath: "\($0)/\(name)") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// `PATH` with the quaketui under test first, as a shell that completes it would have it.
    static var pathWithQuaketui: [String: String] {
        ["PATH": QuaketuiBinary.url.deletingLastPathComponent().path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "")]
    }

    /// What bash's completion function offers for `words`, the last one being completed, with
    /// `compopt` calls recorded as a first line `compopt: …` when `recordingCompopt`.
    static func bashCompletions(_ script: URL, _ words: [String], in directory: URL? = nil,
                                recordingCompopt: Bool = false) throws -> [String] {
        let quoted = words.map { "'\($0)'" }.joined(separator: " ")
        let program = """
            source '\(script.path)'
            complete -p quaketui >/dev/null || exit 3
            \(recordingCompopt ? "compopt() { echo \"compopt: $*\"; }" : "")
            COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1)
            _quaketui
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let (status, out, err) = try ChildProcess.run(try #require(installed("bash")), ["--norc", "-c", program],
                                                      environment: pathWithQuaketui, currentDirectory: directory)
        #expect(status == 0, "\(err)")
        return out.split(separator: "\n").map(String.init)
    }

    /// `bash`: the saved scenes' IDs for `scenes rm` and `--scene`, from the state directory the
    /// line names; paths through `compopt -o filenames`, so a directory gets its `/`.
    @Test(.enabled(if: installed("bash") != nil, "needs bash"))
    func bashOffersSceneIDsAndMarksDirectories() throws {
        let script = try Self.script("bash")
        defer { try? FileManager.default.removeItem(at: script) }
        let (dir, _) = try ScenesCommandTests.stateWithScenes()
        defer { dir.remove() }
        #expect(try Self.bashCompletions(script, ["quaketui", "scenes", "rm", "--state-dir", dir.path, ""]) == ["left", "right"])
        #expect(try Self.bashCompletions(script, ["quaketui", "scenes", "rm", "left", "--state-dir", dir.path, "r"]) == ["right"])
        #expect(try Self.bashCompletions(script, ["quaketui", "--state-dir", dir.path, "--scene", "l"]) == ["left"])
        #expect(try Self.bashCompletions(script, ["quaketui", "scenes", ""]) == ["list", "rm", "prune"])
        try FileManager.default.createDirectory(at: dir.appending("feeds"), withIntermediateDirectories: true)
        #expect(try Self.bashCompletions(script, ["quaketui", "info", "--state-dir", "fe"], in: dir.url, recordingCompopt: true)
                == ["compopt: -o filenames", "feeds"])
        #expect(try Self.bashCompletions(script, ["quaketui", "import", "fe"], in: dir.url, recordingCompopt: true)
                == ["compopt: -o filenames", "feeds"])
    }

    @Test(.enabled(if: installed("bash") != nil, "needs bash"))
    func bashCompletesCommandsOptionsAndValues() throws {
        let script = try Self.script("bash")
        defer { try? FileManager.default.removeItem(at: script) }
        #expect(try Self.bashCompletions(script, ["quaketui", "li"]) == ["list"])
        #expect(try Self.bashCompletions(script, ["quaketui", "sc"]) == ["scenes"])
        #expect(try Self.bashCompletions(script, ["quaketui", "st"]) == ["stats", "status"])
        #expect(try Self.bashCompletions(script, ["quaketui", "help", "re"]) == ["refresh"])
        #expect(try Self.bashCompletions(script, ["quaketui", "list", "--so"]) == ["--sort"])
        #expect(try Self.bashCompletions(script, ["quaketui", "list", "--sort", ""]) == ["time", "magnitude", "region", "depth", "distance", "intensity"])
        #expect(try Self.bashCompletions(script, ["quaketui", "list", "--sort", "m"]) == ["magnitude"])
        // The browser's `:` filters are flags of list, stats and watch (issue 56.11).
        #expect(try Self.bashCompletions(script, ["quaketui", "list", "--al"]) == ["--alert"])
        #expect(try Self.bashCompletions(script, ["quaketui", "stats", "--alert", ""]) == ["green", "yellow", "orange", "red"])
        #expect(try Self.bashCompletions(script, ["quaketui", "watch", "--fe"]) == ["--felt"])
        #expect(try Self.bashCompletions(script, ["quaketui", "refresh", "4.5_w"]) == ["4.5_week"])
        #expect(try Self.bashCompletions(script, ["quaketui", "scenes", "p"]) == ["prune"])
        #expect(try Self.bashCompletions(script, ["quaketui", "--gen"]).sorted()
                == ["--generate-completion-script", "--generate-manual"])
        #expect(try Self.bashCompletions(script, ["quaketui", "--generate-completion-script", "f"]) == ["fish"])
        // Every option of every command is offered after `--`.
        let help = try QuaketuiBinary.run(["help", "delete"]).stdout
        let offered = Set(try Self.bashCompletions(script, ["quaketui", "delete", "--"]))
        #expect(offered == ["--all", "--yes", "--before", "--state-dir", "--json", "--help"], "\(help)")
        // Paths for import, directories for --state-dir.
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try FileManager.default.createDirectory(at: dir.appending("feeds"), withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: dir.appending("feed.geojson").path, contents: Data())
        #expect(try Self.bashCompletions(script, ["quaketui", "import", "fe"], in: dir.url).sorted() == ["feed.geojson", "feeds"])
        #expect(try Self.bashCompletions(script, ["quaketui", "info", "--state-dir", "fe"], in: dir.url) == ["feeds"])
    }

    @Test(.enabled(if: installed("fish") != nil, "needs fish (installed by .ci/run)"))
    func fishCompletesCommandsOptionsAndValues() throws {
        let script = try Self.script("fish")
        defer { try? FileManager.default.removeItem(at: script) }
        func complete(_ line: String) throws -> [String] {
            let (status, out, err) = try ChildProcess.run(try #require(Self.installed("fish")), [
                "--no-config", "-c", "source '\(script.path)'; complete -C '\(line)'"], environment: Self.pathWithQuaketui)
            #expect(status == 0, "\(err)")
            return out.split(separator: "\n").map { String($0.split(separator: "\t").first ?? "") }
        }
        #expect(try complete("quaketui li") == ["list"])
        #expect(try complete("quaketui list --sort ").sorted() == ["depth", "distance", "intensity", "magnitude", "region", "time"])
        #expect(try complete("quaketui refresh all_h") == ["all_hour"])
        #expect(try complete("quaketui delete --be") == ["--before"])
        // Commands after the root's options, scene IDs where a scene is asked for, and `scenes`'
        // words only until one is given.
        let (dir, _) = try ScenesCommandTests.stateWithScenes()
        defer { dir.remove() }
        #expect(try complete("quaketui --state-dir \(dir.path) li") == ["list"])
        #expect(try complete("quaketui --state-dir \(dir.path) --scene ").sorted() == ["left", "right"])
        #expect(try complete("quaketui scenes rm --state-dir \(dir.path) ").sorted() == ["left", "right"])
        #expect(try complete("quaketui scenes ").sorted() == ["list", "prune", "rm"])
    }

    @Test(.enabled(if: installed("zsh") != nil, "needs zsh (installed by .ci/run)"))
    func zshLoadsTheScript() throws {
        let script = try Self.script("zsh")
        defer { try? FileManager.default.removeItem(at: script) }
        // Load it the way compinit does (as an autoloaded function) and check it parses and registers.
        let directory = script.deletingLastPathComponent().appendingPathComponent("zfunc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.copyItem(at: script, to: directory.appendingPathComponent("_quaketui"))
        let program = """
            fpath=('\(directory.path)' $fpath); autoload -Uz compinit; compinit -u -D
            zsh -n '\(directory.path)/_quaketui' || exit 4
            [[ ${_comps[quaketui]} == _quaketui ]] || exit 5
            """
        let (status, _, err) = try ChildProcess.run(try #require(Self.installed("zsh")), ["-f", "-c", program])
        #expect(status == 0, "\(err)")
    }

    @Test func theManualCoversEveryCommandAndOption() throws {
        let manual = try QuaketuiBinary.run(["--generate-manual"])
        #expect(manual.status == 0)
        #expect(manual.stdout.hasPrefix(".\\\" Generated by 'quaketui --generate-manual'"))
        #expect(manual.lines.first { $0.hasPrefix(".TH QUAKETUI 1") } != nil)
        for command in ["import", "refresh", "list", "open", "scenes", "info", "delete"] {
            #expect(manual.lines.filter { $0 == ".SS \(command)" }.count == 1, "\(command)")
            let help = try QuaketuiBinary.run(["help", command]).stdout
            let optionLines = help.split(separator: "\n").filter { $0.hasPrefix("  --") }
            #expect(!optionLines.isEmpty)
            for option in optionLines.compactMap({ $0.split(separator: " ").first }) {
                #expect(manual.lines.first { $0.hasPrefix(".B \\-\\-\(option.dropFirst(2))") } != nil, "\(command) \(option)")
            }
        }
        guard let groff = Self.installed("groff") else { return }
        let page = FileManager.default.temporaryDirectory.appendingPathComponent("quaketui-\(UUID().uuidString).1")
        try Data(manual.stdout.utf8).write(to: page)
        defer { try? FileManager.default.removeItem(at: page) }
        // `man` sets the line length from the terminal: every width a terminal may have.
        for width in [60, 80, 100, 120, 150, 200] {
            let (status, out, err) = try ChildProcess.run(groff, ["-man", "-Tutf8", "-ww", "-rLL=\(width)n", page.path])
            #expect(status == 0)
            #expect(err.isEmpty, "groff warns at \(width) columns: \(err)")
            #expect(out.split(separator: "\n").first { !$0.isEmpty }?.hasPrefix("QUAKETUI(1)") == true, "\(out.prefix(200))")
        }
    }
}

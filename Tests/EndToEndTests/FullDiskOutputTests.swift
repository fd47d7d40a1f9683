import Foundation
import QuakeModel
import QuakeStore
import QuakeTestSupport
import Testing

/// Issue 29, point 1: output to a full disk (`/dev/full`: every write fails with ENOSPC) is a
/// failure in one sentence and exit 1, never a crash (SIGILL from `FileHandle.write`) and never
/// exit 0 with the output lost (stdio's unchecked flush at exit).
@Suite(.waitsOnProcesses) struct FullDiskOutputTests {
    /// Runs `quaketui ARGS` with stdout and/or stderr sent to /dev/full.
    static func run(_ arguments: [String], state: URL, stdoutFull: Bool, stderrFull: Bool = false) throws -> QuaketuiBinary.Result {
        let redirect = (stdoutFull ? " >/dev/full" : "") + (stderrFull ? " 2>/dev/full" : "")
        let (status, out, err) = try ChildProcess.run(URL(fileURLWithPath: "/bin/sh"),
                                                      ["-c", "exec \"$0\" \"$@\"" + redirect, QuaketuiBinary.url.path] + arguments,
                                                      environment: ["QUAKETUI_STATE_DIR": state.path])
        return QuaketuiBinary.Result(status: status, stdout: out, stderr: err)
    }

    static let commands: [[String]] = [
        ["list"], ["list", "--json"], ["info"], ["info", "--json"], ["scenes"], ["config"], ["config", "--json"],
        ["--help"], ["help", "list"], ["--version"], ["delete", "--before", "1970-01-02"],
    ]

    @Test(arguments: commands)
    func aFullStdoutIsOneSentenceAndExit1(arguments: [String]) throws {
        let store = try TestStore()
        defer { store.remove() }
        try store.upsert((0..<300).map { .fixture("q\($0)", time: 1_700_000_000_000 + Int64($0) * 60_000) })
        let result = try Self.run(arguments, state: store.directory.url, stdoutFull: true)
        #expect(result.status == 1, "\(arguments): \(result.stderr)")
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(arguments): \(result.stderr)")
        #expect(result.stderr.hasPrefix("Error: Cannot write to standard output: No space left on device"), "\(arguments): \(result.stderr)")
    }

    @Test(arguments: [["info", "--bogus"], ["frobnicate"], ["delete"], ["list", "--near", "nowhere-at-all"]])
    func aFullStderrForAnErrorExitsWithoutACrash(arguments: [String]) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let result = try Self.run(arguments, state: dir.url, stdoutFull: false, stderrFull: true)
        #expect(result.status == 1 || result.status == 64, "\(arguments): \(result.status)")
        #expect(result.stdout.isEmpty)
    }

    @Test func bothStreamsFullIsExit1WithoutACrash() throws {
        let store = try TestStore()
        defer { store.remove() }
        try store.upsert((0..<3_000).map { .fixture("q\($0)", time: 1_700_000_000_000 + Int64($0) * 60_000) })
        for arguments in [["list"], ["list", "--json"], ["info"]] {
            let result = try Self.run(arguments, state: store.directory.url, stdoutFull: true, stderrFull: true)
            #expect(result.status == 1, "\(arguments): \(result.status)")
        }
    }
}

import Foundation
import QuakeStore
import QuakeTestSupport
import Testing

/// Issue 29, point 3: an I/O error reading a state file is not corruption. Only a file read whole
/// that does not parse is moved aside; one EIO or EINTR is tried again, a lasting one reported,
/// and the file is left where it is (faults injected with `tools/faults/faultshim.c`).
@Suite struct TransientIOErrorTests {
    static func stateWithSettings() throws -> TemporaryDirectory {
        let dir = try TemporaryDirectory()
        try PersistentContainer(directory: dir.url).close()
        let set = try QuaketuiBinary.run(["config", "alertMagnitude", "6.5"], stateDirectory: dir.url)
        #expect(set.status == 0, "\(set.stderr)")
        return dir
    }

    /// Names in the state directory that were set aside (`….corrupt-…`).
    static func setAside(_ dir: TemporaryDirectory) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: dir.url.path).filter { $0.contains(".corrupt-") }
    }

    static func alertMagnitude(_ dir: TemporaryDirectory) throws -> String {
        try QuaketuiBinary.run(["config", "alertMagnitude"], stateDirectory: dir.url).stdout
    }

    @Test(arguments: ["EIO", "EINTR"])
    func oneFailedReadOfDefaultsIsRetriedAndMovesNothingAside(errno: String) throws {
        let dir = try Self.stateWithSettings()
        defer { dir.remove() }
        let env = try FaultShim.environment(calls: ["read"], path: "defaults.plist", nth: 1, errno: errno)
        let list = try QuaketuiBinary.run(["list"], stateDirectory: dir.url, environment: env)
        #expect(list.status == 0, "\(list.stderr)")
        #expect(try Self.setAside(dir).isEmpty)
        #expect(try Self.alertMagnitude(dir) == "M 6.5\n")
    }

    @Test func aLastingReadErrorIsReportedAndTheFileIsNeitherMovedNorOverwritten() throws {
        let dir = try Self.stateWithSettings()
        defer { dir.remove() }
        let env = try FaultShim.environment(calls: ["read"], path: "defaults.plist", nth: 1, times: 1_000)
        let set = try QuaketuiBinary.run(["config", "alertRadius", "300"], stateDirectory: dir.url, environment: env)
        #expect(set.status == 1, "\(set.stdout)")
        #expect(set.stderr.hasPrefix("Error: ") && set.stderr.contains("Input/output error"), "\(set.stderr)")
        #expect(set.stderr.split(separator: "\n").count == 1, "\(set.stderr)")
        let list = try QuaketuiBinary.run(["list"], stateDirectory: dir.url, environment: env)
        #expect(list.status == 0, "\(list.stderr)")
        #expect(try Self.setAside(dir).isEmpty)
        #expect(try Self.alertMagnitude(dir) == "M 6.5\n")
    }

    /// Every open under the state directory by `list` failed in turn, once: nothing is moved
    /// aside, the settings survive, and the command fails in one sentence or succeeds.
    @Test(arguments: ["EIO", "EINTR"])
    func eachOpenInTheStateDirectoryFailingOnceLosesNoSettings(errno: String) throws {
        let dir = try Self.stateWithSettings()
        defer { dir.remove() }
        let points = try FaultShim.countCalls(calls: ["open"], path: dir.url.path, in: dir.url) { env in
            _ = try QuaketuiBinary.run(["list"], stateDirectory: dir.url, environment: env)
        }
        #expect(points > 2)
        for nth in 1...points {
            let env = try FaultShim.environment(calls: ["open"], path: dir.url.path, nth: nth, errno: errno)
            let list = try QuaketuiBinary.run(["list"], stateDirectory: dir.url, environment: env)
            #expect(list.status == 0 || (list.status == 1 && list.stderr.split(separator: "\n").count == 1),
                    "open #\(nth): \(list.status) \(list.stderr)")
            #expect(try Self.setAside(dir).isEmpty, "open #\(nth)")
            #expect(try Self.alertMagnitude(dir) == "M 6.5\n", "open #\(nth)")
        }
    }
}

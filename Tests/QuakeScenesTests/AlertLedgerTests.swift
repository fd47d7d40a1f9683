import Foundation
import QuakeScenes
import QuakeTestSupport
import Testing

/// Each quake alerts once across every pane: concurrent claims of the same code have one winner.
@Suite struct AlertLedgerTests {
    @Test func aCodeIsClaimedOnceAcrossConcurrentClaimants() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let state = try StateDirectory(path: dir.path).prepared()
        let codes = (0..<40).map { "us70000\($0)" }
        let winners = NSLock()
        nonisolated(unsafe) var won: [String: Int] = [:]
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            let ledger = AlertLedger(state: state)
            for code in codes.shuffled() where (try? ledger.claim(code)) == true {
                winners.lock(); won[code, default: 0] += 1; winners.unlock()
            }
        }
        #expect(won.count == codes.count)
        #expect(won.values.allSatisfy { $0 == 1 }, "every code has exactly one winner")
        #expect(codes.allSatisfy { AlertLedger(state: state).hasClaimed($0) })
        #expect(try AlertLedger(state: state).claim(codes[0]) == false)
    }

    @Test func oldClaimsAreForgotten() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let state = try StateDirectory(path: dir.path).prepared()
        let ledger = AlertLedger(state: state)
        let long = Date(timeIntervalSinceNow: -AlertLedger.retention - 10)
        #expect(try ledger.claim("old", now: long))
        #expect(try ledger.claim("new"))
        #expect(!ledger.hasClaimed("old"), "pruned by the next claim")
        #expect(ledger.hasClaimed("new"))
    }

    @Test func aCorruptLedgerIsSetAsideNotFatal() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let state = try StateDirectory(path: dir.path).prepared()
        try Data("not a plist".utf8).write(to: URL(fileURLWithPath: state.alertsPath))
        #expect(try AlertLedger(state: state).claim("x"))
        #expect(AlertLedger(state: state).hasClaimed("x"))
    }
}

import Foundation
import Testing
@testable import QuakeTUI
@testable import QuakeTUIRuntime

/// Compares a frame's text with `Snapshots/<name>.txt`, in argument-parser's style.
///
/// With `RECORD_SNAPSHOTS=1` the snapshot is (re)written and the test fails, so a recording
/// run can never pass by accident; a mismatch prints a line diff.
func assertSnapshot(_ buffer: CellBuffer, named name: String, filePath: String = #filePath,
                    sourceLocation: SourceLocation = #_sourceLocation) {
    assertSnapshot(text: buffer.text, named: name, filePath: filePath, sourceLocation: sourceLocation)
}

/// Compares the style layer (`CellBuffer.styleText`, one role letter per column) with
/// `Snapshots/<name>.styles.txt`.
func assertStyleSnapshot(_ buffer: CellBuffer, named name: String, filePath: String = #filePath,
                         sourceLocation: SourceLocation = #_sourceLocation) {
    assertSnapshot(text: buffer.styleText, named: "\(name).styles", filePath: filePath, sourceLocation: sourceLocation)
}

/// Compares text with `Snapshots/<name>.txt`, recording it under `RECORD_SNAPSHOTS=1`.
func assertSnapshot(text: String, named name: String, filePath: String = #filePath,
                    sourceLocation: SourceLocation = #_sourceLocation) {
    let url = URL(fileURLWithPath: filePath).deletingLastPathComponent()
        .appendingPathComponent("Snapshots").appendingPathComponent("\(name).txt")
    let actual = text + "\n"
    if ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] == "1" {
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try actual.write(to: url, atomically: true, encoding: .utf8)
            Issue.record("Recorded snapshot \(name).txt; unset RECORD_SNAPSHOTS and run the tests again.",
                         sourceLocation: sourceLocation)
        } catch {
            Issue.record("Could not write snapshot \(url.path): \(error)", sourceLocation: sourceLocation)
        }
        return
    }
    guard let expected = try? String(contentsOf: url, encoding: .utf8) else {
        Issue.record("Snapshot \(name).txt is missing; run with RECORD_SNAPSHOTS=1 to record it.",
                     sourceLocation: sourceLocation)
        return
    }
    if expected != actual {
        Issue.record("Snapshot \(name).txt differs (- expected, + actual):\n\(lineDiff(expected, actual))",
                     sourceLocation: sourceLocation)
    }
}

/// A simple line diff: common lines with two spaces, removed with `-`, added with `+`.
func lineDiff(_ expected: String, _ actual: String) -> String {
    let old = expected.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let new = actual.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    // Longest common subsequence table; frames are small.
    var table = Array(repeating: Array(repeating: 0, count: new.count + 1), count: old.count + 1)
    for i in stride(from: old.count - 1, through: 0, by: -1) {
        for j in stride(from: new.count - 1, through: 0, by: -1) {
            table[i][j] = old[i] == new[j] ? table[i + 1][j + 1] + 1 : max(table[i + 1][j], table[i][j + 1])
        }
    }
    var output: [String] = []
    var i = 0
    var j = 0
    while i < old.count || j < new.count {
        if i < old.count, j < new.count, old[i] == new[j] {
            output.append("  " + old[i]); i += 1; j += 1
        } else if j < new.count, i == old.count || table[i][j + 1] >= table[i + 1][j] {
            output.append("+ " + new[j]); j += 1
        } else {
            output.append("- " + old[i]); i += 1
        }
    }
    return output.joined(separator: "\n")
}

import Foundation

/// The one way tests wait: polls `condition` every 5 ms until it holds or `timeout` passes, and
/// returns whether it held. Deadlines are generous (a loaded 2-core machine must not flake);
/// nothing waits for a time instead of a condition.
///
/// ```swift
/// #expect(eventually(timeout: 20) { watcher.stdout.contains("us7000abcd") })
/// ```
public func eventually(timeout: TimeInterval = 2, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if try condition() { return true }
        usleep(5_000)
    }
    return try condition()
}

import Foundation

/// A fresh directory under the system temp dir, removed by `remove()`.
///
/// ```swift
/// let dir = try TemporaryDirectory()
/// defer { dir.remove() }
/// ```
public struct TemporaryDirectory: Sendable {
    public let url: URL
    public var path: String { url.path }

    public init(prefix: String = "quaketui-test") throws {
        let base = FileManager.default.temporaryDirectory
        url = base.appendingPathComponent("\(prefix)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    public func appending(_ component: String) -> URL { url.appendingPathComponent(component) }

    public func remove() { try? FileManager.default.removeItem(at: url) }
}

import Foundation

/// A validated scene identifier: 1 to 64 characters from `[A-Za-z0-9._-]`, never `.` or `..`.
///
/// ```swift
/// let explicit = try SceneID(validating: "left")        // usage error if bad
/// let derived = SceneID(sanitizing: "tmux-my work-0-1")  // "tmux-my_work-0-1"
/// ```
///
/// Because the character set has no `/` and `.`/`..` are refused, `scenes/ID.plist` can never
/// name a file outside `scenes/`.
public struct SceneID: Hashable, Sendable, Codable, CustomStringConvertible, Comparable {
    /// The longest allowed ID.
    public static let maximumLength = 64
    /// The scene used when nothing else names one.
    public static let main = SceneID(unchecked: "main")

    /// The ID text, safe to use as a file name.
    public let rawValue: String

    private init(unchecked: String) { rawValue = unchecked }

    /// Accepts `text` only if it is already a valid ID.
    ///
    /// - Throws: ``QuakeScenesError`` `invalidSceneID` (a usage error) naming the bad ID.
    public init(validating text: String) throws {
        guard SceneID.isValid(text) else {
            throw QuakeScenesError(.invalidSceneID, sceneID: text)
        }
        rawValue = text
    }

    /// Makes a valid ID from any text: bad characters become `_`, the result is cut to 64
    /// characters, and an empty, `.` or `..` result becomes `_`-based text.
    public init(sanitizing text: String) {
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            scalars.append(SceneID.isAllowed(scalar) ? scalar : "_")
            if scalars.count == SceneID.maximumLength { break }
        }
        var result = String(scalars)
        if result.isEmpty { result = "_" }
        if result == "." || result == ".." { result = String(repeating: "_", count: result.count) }
        rawValue = result
    }

    /// Whether `text` matches `[A-Za-z0-9._-]{1,64}` and is not `.` or `..`.
    public static func isValid(_ text: String) -> Bool {
        let scalars = text.unicodeScalars
        guard (1...maximumLength).contains(scalars.count), text != ".", text != ".." else { return false }
        return scalars.allSatisfy(isAllowed)
    }

    private static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "A"..."Z", "a"..."z", "0"..."9", ".", "_", "-": return true
        default: return false
        }
    }

    /// The `n`th alternative, `ID-n`, for a derived ID whose scene is taken (n ≥ 2), cut so the
    /// result still fits in 64 characters.
    public func numbered(_ n: Int) -> SceneID {
        let suffix = "-\(n)"
        let base = String(rawValue.prefix(SceneID.maximumLength - suffix.count))
        return SceneID(sanitizing: base + suffix)
    }

    public var description: String { rawValue }

    public static func < (lhs: SceneID, rhs: SceneID) -> Bool { lhs.rawValue < rhs.rawValue }

    public init(from decoder: any Decoder) throws {
        try self.init(validating: decoder.singleValueContainer().decode(String.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

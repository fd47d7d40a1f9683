import Foundation

/// An unsaved notes edit, stored under `EditView.draft` as the dictionary
/// `{code: String, text: String, cursor: Int}` (SPEC §4.1).
///
/// ```swift
/// try storage.set(EditDraft(code: "us7000abcd", text: "felt it", cursor: 7), for: SceneKeys.editDraft)
/// ```
public struct EditDraft: PropertyListStorable, Equatable, Codable, Hashable {
    /// The code of the quake whose notes are being edited.
    public var code: String
    /// The text typed so far.
    public var text: String
    /// The cursor position in `text`, in characters.
    public var cursor: Int

    public init(code: String, text: String, cursor: Int) {
        self.code = code
        self.text = text
        self.cursor = cursor
    }

    public init?(propertyListItem: PropertyListItem) {
        guard case .dictionary(let d) = propertyListItem,
              case .string(let code)? = d["code"], case .string(let text)? = d["text"],
              case .int(let cursor)? = d["cursor"]
        else { return nil }
        self.init(code: code, text: text, cursor: cursor)
    }

    public var propertyListItem: PropertyListItem? {
        .dictionary(["code": .string(code), "text": .string(text), "cursor": .int(cursor)])
    }
}

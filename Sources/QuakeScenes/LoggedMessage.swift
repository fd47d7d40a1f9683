import Foundation

/// One entry of the message log (`L`), stored under `ContentView.messageLog` as the dictionary
/// `{time: Date, text: String, isError: Bool}`, so an open log comes back after a relaunch with
/// what it showed.
///
/// ```swift
/// try storage.set([LoggedMessage(time: Date(), text: "Notes saved", isError: false)], for: SceneKeys.messageLog)
/// ```
public struct LoggedMessage: PropertyListStorable, Equatable, Hashable, Sendable {
    public var time: Date
    public var text: String
    public var isError: Bool

    public init(time: Date, text: String, isError: Bool) {
        self.time = time
        self.text = text
        self.isError = isError
    }

    public init?(propertyListItem: PropertyListItem) {
        guard case .dictionary(let d) = propertyListItem, case .date(let time)? = d["time"],
              case .string(let text)? = d["text"], case .bool(let isError)? = d["isError"]
        else { return nil }
        self.init(time: time, text: text, isError: isError)
    }

    public var propertyListItem: PropertyListItem? {
        .dictionary(["time": .date(time), "text": .string(text), "isError": .bool(isError)])
    }
}

/// The `:` command line while it has focus, stored under `ContentView.commandLine` as the
/// dictionary `{text: String, cursor: Int}` (the cursor in characters); absent when it is closed.
public struct CommandLineDraft: PropertyListStorable, Equatable, Hashable {
    public var text: String
    public var cursor: Int

    public init(text: String, cursor: Int) {
        self.text = text
        self.cursor = cursor
    }

    public init?(propertyListItem: PropertyListItem) {
        guard case .dictionary(let d) = propertyListItem, case .string(let text)? = d["text"],
              case .int(let cursor)? = d["cursor"]
        else { return nil }
        self.init(text: text, cursor: cursor)
    }

    public var propertyListItem: PropertyListItem? { .dictionary(["text": .string(text), "cursor": .int(cursor)]) }
}

/// Turns the characters the terminal sent into keys: escape sequences (arrows, function keys,
/// SGR and X10 mouse reports) and bracketed pastes (mode 2004: `ESC [200~` … `ESC [201~`).
///
/// Pure, so every split of every sequence is testable. The terminal feeds it everything that
/// can be read at once (`feed`), takes the keys (`decode`), and only while `needsMore` says a
/// sequence has begun but not ended (a write split across reads, a long paste) waits a little
/// for the rest, then calls `flush` if none came.
///
/// The terminal's bytes are decoded from UTF-8 here (`feed(bytes:)`), not by curses: an invalid
/// byte is one U+FFFD (Unicode's "maximal subpart" rule, as `String(decoding:as:)` applies it), so
/// nothing after it is lost, in a paste or in keys; a character split across reads waits for its
/// rest like a sequence begun.
///
/// A paste ends at the terminal's end marker, and only there. A terminal writes the pasted text
/// between its markers as it is, so the text may itself hold `ESC [201~` (a fake end). The rule:
/// an end marker that is followed, in what has been read, by another end marker with no start
/// marker between them, or with text and then a start marker between them (a fake end and a fake
/// start: no one types between two pastes within one read), is text, and the paste goes on to the
/// last of them. An end marker that
/// text follows in the same read, with neither marker after it yet, is *held*: a terminal ends
/// its write of a paste with the end marker, so text right behind it in one read is most likely
/// more of the paste, written in pieces (tmux writes as the terminal drains). What is held decides
/// it as it comes: another end marker (the held one was text, whether a start marker came
/// between or not), a start marker right behind it (it was the end), more than ``heldTextLimit`` characters (no one types that much at once: paste text),
/// or ``heldMilliseconds`` without input (it was the end, and the characters after it are keys,
/// that late; ``flush()``). For a read cut at its limit just after an end marker, the rest is read
/// before this is decided. Legitimate input never has two end markers without a start between
/// them, so real pastes and the keys typed after them are unchanged; keys only wait, that long at
/// most, when they came in the same read as the end marker (pressed while a long paste was still
/// arriving). The limits: a fake marker that ends one of the terminal's pieces exactly, or one
/// with fewer than ``heldTextLimit`` characters behind it whose next piece comes more than
/// ``heldMilliseconds`` later, still ends the paste there, and the text after it goes to the keys
/// (xterm and others strip ESC from pastes for this reason; tmux does not).
///
/// An Esc that is the last thing read is Esc at once, as crossterm and bubbletea decide: a
/// terminal writes a sequence in one piece, so nothing is waited for after a lone Esc (the
/// 25–40 ms `ESCDELAY` wait is gone). `ESC [` or `ESC O` at the end of a read is a sequence
/// begun: that one waits.
///
/// ```swift
/// var decoder = InputDecoder()
/// decoder.feed(bytes: Array("\u{1B}[A\u{1B}".utf8))
/// decoder.decode()   // [.up, .escape]
/// ```
public struct InputDecoder: Sendable {
    /// Read but not yet decoded: the start of an unfinished sequence, never more.
    private var pending: [Unicode.Scalar] = []
    /// The bytes of a UTF-8 character begun at the end of a read (at most 3).
    private var partialCharacter: [UInt8] = []
    /// Inside a bracketed paste: the text so far (nil outside one).
    private var paste: [Unicode.Scalar]?
    /// Characters a paste may hold; the rest of a larger one is dropped (a paste is not a file import).
    public static let pasteLimit = 1 << 20
    /// How long a sequence begun may wait for its rest (a split write), and a paste for its next
    /// piece before what came of it is handed over (``takePasteSoFar()``), in milliseconds.
    public static let sequenceWaitMilliseconds = 50
    /// How long a paste may pause before it is taken as ended without its end marker (a terminal
    /// that lost it): until then, what arrives is the paste's text, never keys, however slowly
    /// it comes (a loaded machine, a slow link; issue 57).
    public static let pasteStallMilliseconds = 2_000
    /// How long an end marker with text behind it in the same read is held without input before
    /// it is taken as the paste's end (the type's comment). Short: a key pressed while a long
    /// paste was still arriving comes in that read and waits this long, and a long paste's later
    /// pieces decide by ``heldTextLimit`` anyway.
    public static let heldMilliseconds = 100
    /// Characters behind a held end marker past which it is taken as text (the type's comment).
    public static let heldTextLimit = 4_096

    /// Whether an end marker with text behind it is held (the type's comment): the runtime then
    /// calls ``flush()`` after ``heldMilliseconds`` without input.
    public var holdsEndMarker: Bool {
        paste != nil && pending.count > Self.pasteEnd.count && pending.prefix(Self.pasteEnd.count).elementsEqual(Self.pasteEnd)
    }
    /// Set while ``flush()`` decodes: a held end marker is then the paste's end.
    private var ending = false

    /// Whether a bracketed paste has begun and not ended.
    public var isInPaste: Bool { paste != nil }

    /// The paste so far as a `.paste` key (none when nothing came since the last), the paste
    /// staying open: what follows, up to its end marker, is still its text. For a paste that
    /// pauses, so that the field shows what came while the rest arrives.
    public mutating func takePasteSoFar() -> [Key] {
        guard let text = paste, !text.isEmpty else { return [] }
        paste = []
        pasteTaken += text.count
        return [.paste(Self.text(text))]
    }

    /// Characters of the open paste already handed over by ``takePasteSoFar()`` (they count
    /// towards ``pasteLimit``).
    private var pasteTaken = 0

    static let pasteStart: [Unicode.Scalar] = Array("\u{1B}[200~".unicodeScalars)
    static let pasteEnd: [Unicode.Scalar] = Array("\u{1B}[201~".unicodeScalars)

    public init() {}

    /// Adds characters read from the terminal.
    public mutating func feed<S: Sequence>(_ scalars: S) where S.Element == Unicode.Scalar {
        pending.append(contentsOf: scalars)
    }

    /// Adds bytes read from the terminal, decoded as UTF-8: each invalid byte (or maximal invalid
    /// subpart) is one U+FFFD; a character cut off at the end waits for the next bytes (or `flush`).
    public mutating func feed<S: Sequence>(bytes: S) where S.Element == UInt8 {
        var bytes = partialCharacter + Array(bytes)
        let begun = Self.partialCharacterLength(at: bytes)
        partialCharacter = Array(bytes.suffix(begun))
        bytes.removeLast(begun)
        pending.append(contentsOf: String(decoding: bytes, as: UTF8.self).unicodeScalars)
    }

    /// How many bytes at the end of `bytes` are a UTF-8 character begun and not finished.
    static func partialCharacterLength(at bytes: [UInt8]) -> Int {
        for length in stride(from: 1, through: min(3, bytes.count), by: 1) {
            let byte = bytes[bytes.count - length]
            guard byte & 0xC0 == 0x80 else {
                let needed = switch byte { case 0xC2...0xDF: 2; case 0xE0...0xEF: 3; case 0xF0...0xF4: 4; default: 0 }
                return needed > length ? length : 0
            }
        }
        return 0
    }

    /// Whether a sequence or paste has begun and not ended: wait (up to
    /// `sequenceWaitMilliseconds`) for more, feed it and `decode` again, else `flush`.
    public var needsMore: Bool { paste != nil || !pending.isEmpty || !partialCharacter.isEmpty }

    /// The keys in what was fed, in order; an unfinished sequence at the end stays pending.
    /// - Parameter moreAvailable: the terminal has more to read right now (a read stopped at its
    ///   limit): an Esc at the end of this much is not known to be alone yet, so it waits too.
    public mutating func decode(moreAvailable: Bool = false) -> [Key] {
        var keys: [Key] = []
        var index = 0
        while index < pending.count {
            if paste != nil {
                guard let end = Self.find(Self.pasteEnd, in: pending, from: index) else {
                    // Keep a possible start of the end marker for the next read.
                    let keep = Self.partialSuffix(of: pending[index...], matching: Self.pasteEnd)
                    appendToPaste(pending[index..<(pending.count - keep)])
                    index = pending.count - keep
                    break
                }
                let after = end + Self.pasteEnd.count
                switch endMarker(at: end, moreAvailable: moreAvailable) {
                case .text:
                    appendToPaste(pending[index..<after])
                    index = after
                case .undecided, .held:
                    appendToPaste(pending[index..<end])
                    pending.removeFirst(end)
                    return keys
                case .end:
                    appendToPaste(pending[index..<end])
                    // All of it handed over already (a paste that paused): nothing more to give.
                    if !paste!.isEmpty || pasteTaken == 0 { keys.append(.paste(Self.text(paste!))) }
                    paste = nil
                    index = after
                }
                continue
            }
            let scalar = pending[index]
            guard scalar == "\u{1B}" else {
                keys.append(Key.decode(scalar: scalar))
                index += 1
                continue
            }
            switch sequence(at: index, moreAvailable: moreAvailable) {
            case .incomplete:
                pending.removeFirst(index)
                return keys
            case .complete(let length, let key):
                if let key { keys.append(key) }
                index += length
            case .pasteStart:
                paste = []
                pasteTaken = 0
                index += Self.pasteStart.count
            }
        }
        pending.removeFirst(index)
        return keys
    }

    /// Nothing more came for an unfinished sequence: what it decodes to as it stands (an Esc
    /// and an `ESC [` or `ESC O` cut short read as Esc; a mouse report cut short as nothing), or
    /// the paste so far.
    public mutating func flush() -> [Key] {
        pending.append(contentsOf: String(decoding: partialCharacter, as: UTF8.self).unicodeScalars)
        partialCharacter = []
        ending = true
        var keys = decode()
        ending = false
        if paste != nil {
            appendToPaste(pending[...])
            pending = []
            keys.append(.paste(Self.text(paste!)))
            paste = nil
            return keys
        }
        guard !pending.isEmpty else { return keys }
        let rest = String(String.UnicodeScalarView(pending.dropFirst()))
        pending = []
        if let key = Key.decodeAfterEscape(rest) { keys.append(key) }
        return keys
    }

    /// What an end marker inside a paste is (see the type's comment).
    private enum EndMarker { case end, text, undecided, held }

    /// The end marker at `end` is text when another end marker follows in what was read with no
    /// start marker between; undecided when none follows yet and the read stopped at its limit;
    /// held when text follows it (no start marker) and ``flush()`` has not been called.
    private func endMarker(at end: Int, moreAvailable: Bool) -> EndMarker {
        let after = end + Self.pasteEnd.count
        if let next = Self.find(Self.pasteEnd, in: pending, from: after) {
            // A start marker right behind it is a second paste; one with text between is as fake
            // as the end (`zz ESC[201~ Q ESC[200~ yy` ran Q): no one types between two pastes
            // within one read.
            guard let start = Self.find(Self.pasteStart, in: pending, from: after, before: next) else { return .text }
            return start > after ? .text : .end
        }
        if moreAvailable { return .undecided }
        guard after < pending.count else { return .end }
        if let start = Self.find(Self.pasteStart, in: pending, from: after) {
            // Text, then a start marker whose paste has not ended yet: its end decides.
            return start > after && !ending ? .held : .end
        }
        if pending.count - after > Self.heldTextLimit { return .text }
        return ending ? .end : .held
    }

    /// Whether a read ending at `split` (of `scalars`) would end right after an end marker
    /// followed by a later one with no start marker right behind it: the decoder cannot know
    /// then that the first is text (the limit in the type's comment). Tests and the fuzz target
    /// skip such splits.
    static func splitsEndMarkers(_ scalars: [Unicode.Scalar], at split: Int) -> Bool {
        var index = 0
        var previousEnd: Int?
        while let end = find(pasteEnd, in: scalars, from: index) {
            if let previousEnd, previousEnd + pasteEnd.count == split,
               find(pasteStart, in: scalars, from: previousEnd + pasteEnd.count, before: end) != previousEnd + pasteEnd.count {
                return true
            }
            previousEnd = end
            index = end + pasteEnd.count
        }
        return false
    }

    private enum Found {
        case incomplete
        /// `length` characters from the ESC, and the key they mean (nil: none, a report).
        case complete(length: Int, key: Key?)
        case pasteStart
    }

    /// The sequence starting with the ESC at `start`.
    private func sequence(at start: Int, moreAvailable: Bool) -> Found {
        let rest = pending[(start + 1)...]
        guard let first = rest.first else {
            // An Esc alone at the end of what was read: Esc.
            return moreAvailable ? .incomplete : .complete(length: 1, key: .escape)
        }
        switch first {
        case "[":
            var body: [Unicode.Scalar] = ["["]
            var index = start + 2
            while index < pending.count {
                let scalar = pending[index]
                // A sequence broken off by the next ESC: what was read of it is dropped.
                if scalar == "\u{1B}" { return .complete(length: index - start, key: nil) }
                body.append(scalar)
                if body.count == 2, scalar == "M" {
                    // X10 mouse report: ESC [ M, then button, column and row, each + 32.
                    guard pending.count - index > 3 else { return .incomplete }
                    let fields = pending[(index + 1)...(index + 3)].map { Int($0.value) - 32 }
                    return .complete(length: 6, key: Self.decodeX10Mouse(fields))
                }
                if Key.isCompleteEscapeSequence(String(String.UnicodeScalarView(body))) { break }
                // No terminal sends a sequence this long: garbage, dropped.
                if body.count >= 64 { return .complete(length: index - start + 1, key: nil) }
                index += 1
            }
            let text = String(String.UnicodeScalarView(body))
            guard Key.isCompleteEscapeSequence(text) else { return .incomplete }
            if text == "[200~" { return .pasteStart }
            return .complete(length: 1 + body.count, key: Key.decodeAfterEscape(text))
        case "O":
            guard let final = rest.dropFirst().first else { return .incomplete }
            let key = Key.decodeEscapeSequence("O" + String(final))
            // ESC O then something that is no SS3 key: Esc, then that letter (alt-O as Esc O).
            return key.map { .complete(length: 3, key: $0) } ?? .complete(length: 1, key: .escape)
        default:
            // Esc then another key in the same read (alt-x, or Esc then x typed at once): Esc, then x.
            return .complete(length: 1, key: .escape)
        }
    }

    private mutating func appendToPaste(_ scalars: ArraySlice<Unicode.Scalar>) {
        guard var text = paste else { return }
        paste = nil
        let room = max(0, Self.pasteLimit - pasteTaken - text.count)
        text.append(contentsOf: scalars.prefix(room))
        paste = text
    }

    /// X10 mouse report fields (button, column, row after subtracting 32; 1-based), as SGR ones.
    static func decodeX10Mouse(_ fields: [Int]) -> Key? {
        guard fields.count == 3 else { return nil }
        let (code, x, y) = (fields[0], fields[1] - 1, fields[2] - 1)
        guard x >= 0, y >= 0 else { return nil }
        switch code & ~(4 | 8 | 16) {
        case 0: return .click(x: x, y: y)
        case 64: return .wheelUp(x: x, y: y)
        case 65: return .wheelDown(x: x, y: y)
        default: return nil  // 3: a release
        }
    }

    /// The index of `needle` in `haystack` at or after `start`, ending by `limit` (nil: the end).
    /// Walks the array's storage: a megabyte's paste is searched for its end marker as it
    /// arrives, and indexing the array scalar by scalar took four times as long (debug build).
    static func find(_ needle: [Unicode.Scalar], in haystack: [Unicode.Scalar], from start: Int, before limit: Int? = nil) -> Int? {
        let end = min(limit ?? haystack.count, haystack.count)
        guard end - start >= needle.count, let first = needle.first else { return nil }
        return haystack.withUnsafeBufferPointer { scalars in
            var index = start
            while index <= end - needle.count {
                if scalars[index] == first, scalars[index..<(index + needle.count)].elementsEqual(needle) { return index }
                index += 1
            }
            return nil
        }
    }

    /// The text of `scalars`, encoded as UTF-8 in one pass over the array's storage (a pasted
    /// megabyte: `String.UnicodeScalarView(_:)` goes through an array of UTF-32 code units and a
    /// second string, five times as long in a debug build).
    static func text(_ scalars: [Unicode.Scalar]) -> String {
        scalars.withUnsafeBufferPointer { scalars in
            var bytes: [UInt8] = []
            bytes.reserveCapacity(scalars.count)
            var index = 0
            while index < scalars.count {
                let scalar = scalars[index]
                if scalar.isASCII {
                    bytes.append(UInt8(truncatingIfNeeded: scalar.value))
                } else if let encoded = UTF8.encode(scalar) {
                    bytes.append(contentsOf: encoded)
                }
                index += 1
            }
            return String(decoding: bytes, as: UTF8.self)
        }
    }

    /// How many characters at the end of `text` are the start of `marker` (a marker split across reads).
    static func partialSuffix(of text: ArraySlice<Unicode.Scalar>, matching marker: [Unicode.Scalar]) -> Int {
        for length in stride(from: min(marker.count - 1, text.count), to: 0, by: -1)
        where text.suffix(length).elementsEqual(marker.prefix(length)) {
            return length
        }
        return 0
    }
}

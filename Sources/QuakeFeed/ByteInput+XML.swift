import QuakeModel
import QuakeStore

// A small streaming XML tokenizer on ByteInput, for QuakeML: start and end tags (names
// reduced to their local part and hashed), attributes on request, text with the five
// predefined entities and character references, CDATA; comments, processing instructions
// and a DOCTYPE are skipped (its entities are never expanded, so no entity bombs). Memory is
// the input buffer plus one scratch string, whatever the document size.

private let lt = UInt8(ascii: "<"), gt = UInt8(ascii: ">"), slash = UInt8(ascii: "/"), amp = UInt8(ascii: "&")
private let lf: UInt8 = 0x0A

/// What ``ByteInput/nextXMLMarkup()`` found.
enum XMLMarkup: Equatable {
    /// `<name` was read; finish the tag with ``ByteInput/finishXMLStartTag(attributes:)``.
    case start(UInt64)
    /// `</name>` was read.
    case end(UInt64)
    /// The end of the input.
    case endOfInput
}

/// FNV-1a of an element's local name (the part after any `prefix:`).
@inline(__always) func xmlNameHash(_ name: String) -> UInt64 { fnv1a(name.utf8) }

/// An element's or attribute's name as the tokenizer reads it: the hash of its local part
/// (``xmlNameHash(_:)``) and whether a `prefix:` came before it.
struct XMLName: Equatable {
    var hash: UInt64
    var prefixed: Bool

    /// `local`, with a prefix (`catalog:eventid`: any prefix) or without one.
    init(_ local: String, prefixed: Bool) {
        hash = xmlNameHash(local)
        self.prefixed = prefixed
    }

    init(hash: UInt64, prefixed: Bool) {
        self.hash = hash
        self.prefixed = prefixed
    }
}

extension ByteInput {
    /// Skips text (keeping it in the scratch when `collect`) and comments, PIs, CDATA, DOCTYPE
    /// up to the next start or end tag. With `collect`, the scratch holds the decoded text (and
    /// CDATA) that came before the tag.
    func nextXMLMarkup(collect: Bool = false) throws(FeedError) -> XMLMarkup {
        if collect { resetScratch() }
        while true {
            guard try readXMLText(collect: collect) else { return .endOfInput }
            // pos is at '<'
            pos &+= 1
            let c = try nextRawByte("after '<'")
            switch c {
            case slash:
                let hash = try readXMLName().hash
                try skipXMLSpace()
                let close = try nextRawByte("in an end tag")
                guard close == gt else { pos &-= 1; throw syntaxError(expected: "expected '>' closing an end tag", found: close) }
                return .end(hash)
            case UInt8(ascii: "?"):
                try skipUntil("?>", context: "inside a processing instruction")
            case UInt8(ascii: "!"):
                try skipDeclaration(collect: collect)
            default:
                pos &-= 1
                return .start(try readXMLName().hash)
            }
        }
    }

    /// Reads text up to '<' (not consumed). Returns false at the end of input.
    private func readXMLText(collect: Bool) throws(FeedError) -> Bool {
        while true {
            let p = buffer, e = end
            var i = pos
            while i < e {
                let b = p[i]
                if b == lt || b == amp { break }
                if b == lf {
                    line &+= 1
                    lineStart = base + Int64(i) + 1
                }
                i &+= 1
            }
            if collect { appendScratch(p + pos, i &- pos) }
            pos = i
            if i < e {
                if p[i] == lt { return true }
                pos &+= 1
                let scalar = try readXMLReference()
                if collect { appendScalar(scalar) }
                continue
            }
            guard try refill() else { return false }
        }
    }

    /// Reads an element or attribute name at pos: the hash of its local part, and whether it
    /// had a prefix (`catalog:eventid`). `expected` says what was wanted when no name is there.
    private func readXMLName(expected: String = "expected a name") throws(FeedError) -> XMLName {
        var h = fnv1aBasis
        var count = 0
        var prefixed = false
        while true {
            guard try ensure() else { throw unexpectedEnd("inside a tag name") }
            let b = buffer[pos]
            if b == gt || b == slash || b == UInt8(ascii: "=") || b <= 0x20 { break }
            pos &+= 1
            if b == UInt8(ascii: ":") {
                h = fnv1aBasis
                count = 0
                prefixed = true
                continue
            }
            h = fnv1aStep(h, b)
            count &+= 1
        }
        guard count > 0 else {
            throw syntaxError(expected: expected, found: buffer[pos])
        }
        return XMLName(hash: h, prefixed: prefixed)
    }

    private func skipXMLSpace() throws(FeedError) {
        while try ensure() {
            let b = buffer[pos]
            guard b <= 0x20 else { return }
            if b == lf {
                line &+= 1
                lineStart = offset + 1
            }
            pos &+= 1
        }
    }

    /// Reads the attributes and the end of a start tag. Returns whether it was self-closing
    /// (`<x/>`). Each attribute whose name `keeping` wants is passed to `attributes` with its
    /// decoded value; the others are scanned, never decoded into a string (an ANSS origin
    /// carries four attributes beside the one publicID read), and no name becomes a string.
    func finishXMLStartTag(keeping: (XMLName) -> Bool = { _ in false },
                           attributes: (XMLName, String) -> Void = { _, _ in }) throws(FeedError) -> Bool {
        while true {
            try skipXMLSpace()
            let c = try nextRawByte("inside a tag")
            if c == gt { return false }
            if c == slash {
                let close = try nextRawByte("inside a tag")
                guard close == gt else { pos &-= 1; throw syntaxError(expected: "expected '>' after '/'", found: close) }
                return true
            }
            pos &-= 1
            let name = try readXMLName(expected: "expected an attribute name or '>'")
            let keep = keeping(name)
            try skipXMLSpace()
            let equals = try nextRawByte("after an attribute name")
            guard equals == UInt8(ascii: "=") else { pos &-= 1; throw syntaxError(expected: "expected '=' after an attribute name", found: equals) }
            try skipXMLSpace()
            let quote = try nextRawByte("before an attribute value")
            guard quote == 0x22 || quote == 0x27 else {
                pos &-= 1
                throw syntaxError(expected: "expected a quoted attribute value", found: quote)
            }
            resetScratch()
            while true {
                guard try ensure() else { throw unexpectedEnd("inside an attribute value") }
                // A run of plain bytes at once, then the byte that ends it.
                let p = buffer, e = end
                var i = pos
                while i < e {
                    let b = p[i]
                    if b == quote || b == lt || b == amp || b == lf { break }
                    i &+= 1
                }
                if keep { appendScratch(p + pos, i &- pos) }
                pos = i
                guard i < e else { continue }
                let b = p[i]
                pos &+= 1
                if b == quote { break }
                if b == lt { pos &-= 1; throw syntaxError(expected: "expected the end of the attribute value", found: b) }
                if b == amp {
                    let scalar = try readXMLReference()
                    if keep { appendScalar(scalar) }
                    continue
                }
                line &+= 1  // b == lf
                lineStart = offset
                if keep { appendScratch(b) }
            }
            if keep { attributes(name, scratchString()) }
        }
    }

    /// The scratch as a string without its leading and trailing XML whitespace (space, tab,
    /// CR, LF), trimmed on the bytes before any string is made.
    func trimmedXMLScratchString() -> String {
        var first = 0, last = scratchCount
        @inline(__always) func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }
        while first < last, isSpace(scratch[first]) { first &+= 1 }
        while last > first, isSpace(scratch[last &- 1]) { last &-= 1 }
        return String(decoding: UnsafeBufferPointer(start: scratch + first, count: last &- first), as: UTF8.self)
    }

    /// Reads `name;` or `#N;` or `#xH;` after '&'. Unknown names (from a DTD) become U+FFFD.
    private func readXMLReference() throws(FeedError) -> UInt32 {
        var bytes: [UInt8] = []
        let start = offset - 1
        while true {
            let b = try nextRawByte("inside a character reference")
            if b == UInt8(ascii: ";") { break }
            guard bytes.count < 12, b > 0x20, b != lt else {
                throw error(.syntax, "a '&' that does not start a character reference (write &amp;)", at: start)
            }
            bytes.append(b)
        }
        switch String(decoding: bytes, as: UTF8.self) {
        case "amp": return 0x26
        case "lt": return 0x3C
        case "gt": return 0x3E
        case "quot": return 0x22
        case "apos": return 0x27
        case let name where name.hasPrefix("#x") || name.hasPrefix("#X"):
            if let v = UInt32(name.dropFirst(2), radix: 16), Unicode.Scalar(v) != nil { return v }
        case let name where name.hasPrefix("#"):
            if let v = UInt32(name.dropFirst()), Unicode.Scalar(v) != nil { return v }
        default:
            return 0xFFFD
        }
        throw error(.invalidString, "an invalid character reference '&\(String(decoding: bytes, as: UTF8.self));'", at: start)
    }

    private func appendScalar(_ v: UInt32) {
        var utf8: [UInt8] = []
        utf8.reserveCapacity(4)
        if let scalar = Unicode.Scalar(v) { utf8 += Array(String(Character(scalar)).utf8) }
        for b in utf8 { appendScratch(b) }
    }

    /// Skips to just past `terminator` (two bytes), counting lines.
    private func skipUntil(_ terminator: StaticString, context: String, collect: Bool = false) throws(FeedError) {
        let t = terminator.utf8Start
        let count = terminator.utf8CodeUnitCount
        var matched = 0
        while true {
            guard try ensure() else { throw unexpectedEnd(context) }
            let b = buffer[pos]
            pos &+= 1
            if b == lf {
                line &+= 1
                lineStart = offset
            }
            if b == t[matched] {
                matched += 1
                if matched == count { return }
            } else {
                if collect {
                    for k in 0..<matched { appendScratch(t[k]) }
                }
                matched = b == t[0] ? 1 : 0
                if collect && matched == 0 { appendScratch(b) }
            }
        }
    }

    /// After `<!`: a comment, CDATA (text) or a DOCTYPE (skipped with its internal subset).
    private func skipDeclaration(collect: Bool) throws(FeedError) {
        let start = offset - 2
        let c = try nextRawByte("after '<!'")
        if c == UInt8(ascii: "-") {
            guard try nextRawByte("after '<!-'") == UInt8(ascii: "-") else {
                throw error(.syntax, "expected '<!--' starting a comment", at: start)
            }
            try skipUntil("-->", context: "inside a comment")
            return
        }
        if c == UInt8(ascii: "[") {
            for expected in Array("CDATA[".utf8) {
                guard try nextRawByte("after '<!['") == expected else {
                    throw error(.syntax, "expected '<![CDATA[' ", at: start)
                }
            }
            try skipUntil("]]>", context: "inside a CDATA section", collect: collect)
            return
        }
        // <!DOCTYPE …> possibly with [ … ] inside.
        var depth = 0
        var b = c
        while true {
            if b == lf {
                line &+= 1
                lineStart = offset
            }
            if b == UInt8(ascii: "[") { depth += 1 }
            if b == UInt8(ascii: "]") { depth -= 1 }
            if b == gt && depth <= 0 { return }
            b = try nextRawByte("inside a <!DOCTYPE> declaration")
        }
    }
}

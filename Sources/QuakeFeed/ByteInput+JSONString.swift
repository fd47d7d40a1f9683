// JSON strings on ByteInput: SWAR scanning, escapes, surrogate pairs, member names.

private let quote: UInt8 = 0x22, backslash: UInt8 = 0x5C

/// The index of the first byte in `p[i..<e]` that ends a plain string run — `"`, `\\` or a
/// control character — or `e`. Eight bytes at a time (SWAR): strings are most of a feed's bytes.
@inline(__always) func stringRunEnd(_ p: UnsafeMutablePointer<UInt8>, _ start: Int, _ e: Int) -> Int {
    var i = start
    let ones: UInt64 = 0x0101_0101_0101_0101
    while i &+ 8 <= e {
        let w = UnsafeRawPointer(p + i).loadUnaligned(as: UInt64.self)
        let q = w ^ 0x2222_2222_2222_2222
        let b = w ^ 0x5C5C_5C5C_5C5C_5C5C
        // Classic "has zero byte" / "has byte less than n" tests; the lowest flagged byte is exact
        // (false positives can only appear above a true one, through the borrow).
        let mask = (((q &- ones) & ~q) | ((b &- ones) & ~b) | ((w &- 0x2020_2020_2020_2020) & ~w))
            & 0x8080_8080_8080_8080
        if mask != 0 { return i &+ (mask.trailingZeroBitCount &>> 3) }
        i &+= 8
    }
    while i < e {
        let c = p[i]
        if c == quote || c == backslash || c < 0x20 { return i }
        i &+= 1
    }
    return e
}

extension ByteInput {
    // MARK: - Strings

    /// Skips a string whose opening quote was consumed, validating escapes and control characters.
    @inline(__always) func skipString() throws(FeedError) {
        let p = buffer, e = end
        let i = stringRunEnd(p, pos, e)
        if i < e, p[i] == quote {
            pos = i &+ 1
            return
        }
        pos = i
        try scanString(collect: false)
    }

    /// ``readString()`` for a list written between commas (ComCat's `ids`, `,us7000abcd,`): nil,
    /// consumed without building a string, when it holds at most one item, as nearly every
    /// feature's does (a string per feature was 5% of re-importing a month).
    @inline(__always) func readCommaListOfSeveral() throws(FeedError) -> String? {
        let p = buffer, e = end
        let i = stringRunEnd(p, pos, e)
        if i < e, p[i] == quote {
            // Items: runs of bytes between commas.
            var items = 0
            var afterComma = true
            var k = pos
            while k < i {
                let isComma = p[k] == 0x2C
                if !isComma && afterComma { items &+= 1 }
                afterComma = isComma
                k &+= 1
            }
            if items <= 1 {
                pos = i &+ 1
                return nil
            }
        }
        return try readString()
    }

    /// Reads a string whose opening quote was consumed. Returns nil (having consumed it) when it is
    /// longer than `scratchCapacity` bytes. Invalid UTF-8 becomes U+FFFD.
    @inline(__always) func readString() throws(FeedError) -> String? {
        let p = buffer, e = end
        let i = stringRunEnd(p, pos, e)
        if i < e, p[i] == quote {
            let count = i &- pos
            let start = pos
            pos = i &+ 1
            if count > scratchCapacity { return nil }
            return String(decoding: UnsafeBufferPointer(start: p + start, count: count), as: UTF8.self)
        }
        resetScratch()
        try scanString(collect: true)
        return scratchOverflowed ? nil : scratchString()
    }

    /// ``readString()`` for short, repetitive values, through `interner`.
    @inline(__always) func readShortString(_ interner: StringInterner) throws(FeedError) -> String? {
        let p = buffer, e = end
        let i = stringRunEnd(p, pos, e)
        if i < e, p[i] == quote, i &- pos <= 15 {
            let s = interner.string(p + pos, i &- pos)
            pos = i &+ 1
            return s
        }
        return try readString()
    }

    /// Reads a member name whose opening quote was consumed.
    @inline(__always) func readKey() throws(FeedError) -> PackedKey {
        let p = buffer, e = end
        let i = stringRunEnd(p, pos, e)
        if i < e, p[i] == quote {
            let key = PackedKey.packPadded(p + pos, i &- pos)
            pos = i &+ 1
            return key
        }
        resetScratch()
        try scanString(collect: true)
        return scratchOverflowed ? .unknown : PackedKey.pack(scratch, scratchCount)
    }

    /// The general string loop (escapes, chunk boundaries), from `pos` to past the closing quote;
    /// appends the decoded bytes to the scratch when `collect` is set.
    func scanString(collect: Bool) throws(FeedError) {
        while true {
            let p = buffer, e = end
            let i = stringRunEnd(p, pos, e)
            if collect { appendScratch(p + pos, i &- pos) }
            pos = i
            if i == e {
                guard try refill() else { throw unexpectedEnd("inside a string") }
                continue
            }
            let b = p[i]
            if b == quote {
                pos = i &+ 1
                return
            }
            if b == backslash {
                try scanEscape(collect: collect)
                continue
            }
            throw error(.invalidString, "control character \(describeByte(b)) inside a string",
                        hint: b == 0x0A || b == 0x0D
                            ? "the string is not closed before the end of the line"
                            : "control characters in JSON strings must be escaped as \\u00XX")
        }
    }

    /// Decodes one escape sequence at `pos` (the backslash).
    private func scanEscape(collect: Bool) throws(FeedError) {
        let start = offset
        pos &+= 1
        let c = try nextRawByte("inside a string escape")
        let byte: UInt8
        switch c {
        case quote, backslash, 0x2F: byte = c
        case UInt8(ascii: "b"): byte = 0x08
        case UInt8(ascii: "f"): byte = 0x0C
        case UInt8(ascii: "n"): byte = 0x0A
        case UInt8(ascii: "r"): byte = 0x0D
        case UInt8(ascii: "t"): byte = 0x09
        case UInt8(ascii: "u"):
            var scalar = try readHex4(escapeStart: start)
            if (0xD800...0xDBFF).contains(scalar) {
                guard try nextRawByte("inside a string escape") == backslash,
                      try nextRawByte("inside a string escape") == UInt8(ascii: "u") else {
                    throw error(.invalidString, "lone UTF-16 high surrogate \\u\(hex4(scalar)) in a string",
                                at: start, hint: "a high surrogate must be followed by a \\uDC00–\\uDFFF low surrogate")
                }
                let low = try readHex4(escapeStart: start)
                guard (0xDC00...0xDFFF).contains(low) else {
                    throw error(.invalidString, "lone UTF-16 high surrogate \\u\(hex4(scalar)) in a string",
                                at: start, hint: "it is followed by \\u\(hex4(low)), not by a low surrogate")
                }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(scalar) {
                throw error(.invalidString, "lone UTF-16 low surrogate \\u\(hex4(scalar)) in a string",
                            at: start, hint: "a low surrogate must follow a high surrogate")
            }
            if collect {
                for unit in UTF8.encode(Unicode.Scalar(scalar)!)! { appendScratch(unit) }
            }
            return
        default:
            throw error(.invalidString, "invalid escape sequence '\\\(Character(Unicode.Scalar(c)))' in a string",
                        at: start, hint: "JSON allows \\\" \\\\ \\/ \\b \\f \\n \\r \\t and \\uXXXX")
        }
        if collect { appendScratch(byte) }
    }

    private func readHex4(escapeStart: Int64) throws(FeedError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            let c = try nextRawByte("inside a \\u escape")
            let digit: UInt8
            switch c {
            case 0x30...0x39: digit = c &- 0x30
            case 0x41...0x46: digit = c &- 0x41 &+ 10
            case 0x61...0x66: digit = c &- 0x61 &+ 10
            default:
                throw error(.invalidString, "invalid \\u escape in a string: \(describeByte(c)) is not a hex digit",
                            at: escapeStart)
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    private func hex4(_ v: UInt32) -> String { String(v, radix: 16, uppercase: true).leftPadded(to: 4) }
}

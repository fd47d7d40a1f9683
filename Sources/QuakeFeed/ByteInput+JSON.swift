// The JSON tokenizer: whitespace, strings, numbers, literals and iterative value skipping,
// working directly on ByteInput's buffer. Values nobody asked for are scanned, never decoded.

private let quote: UInt8 = 0x22, backslash: UInt8 = 0x5C

/// A JSON number: the exact integer when the literal is an integer that fits `Int64`,
/// and its `Double` value (possibly ±infinity for literals such as `1e400`).
struct JSONNumber {
    var integer: Int64?
    var double: Double
}

/// A member name packed into two words for cheap comparison: bytes 0–7, then bytes 8–14
/// with the length in the top byte. Names longer than 15 bytes never match a known key.
struct PackedKey: Equatable {
    var lo: UInt64
    var hi: UInt64

    static let unknown = PackedKey(lo: .max, hi: .max)

    init(lo: UInt64, hi: UInt64) {
        self.lo = lo
        self.hi = hi
    }

    init(_ name: String) {
        var bytes = Array(name.utf8)
        precondition(bytes.count <= 15)
        let count = bytes.count
        bytes += [UInt8](repeating: 0, count: 16 - count)
        self = bytes.withUnsafeBufferPointer { PackedKey.pack($0.baseAddress!, count) }
    }

    /// Packs `count` bytes at `p` with two unaligned loads; `p` must have 16 readable bytes
    /// (ByteInput's buffer is padded for this).
    @inline(__always) static func packPadded(_ p: UnsafePointer<UInt8>, _ count: Int) -> PackedKey {
        guard count <= 15 else { return .unknown }
        var lo = UnsafeRawPointer(p).loadUnaligned(as: UInt64.self)
        var hi = UnsafeRawPointer(p + 8).loadUnaligned(as: UInt64.self)
        if count < 8 {
            lo &= (1 &<< UInt64(count &* 8)) &- 1
            hi = 0
        } else {
            hi &= (1 &<< UInt64((count &- 8) &* 8)) &- 1
        }
        return PackedKey(lo: lo, hi: hi | UInt64(count) &<< 56)
    }

    @inline(__always) static func pack(_ p: UnsafePointer<UInt8>, _ count: Int) -> PackedKey {
        guard count <= 15 else { return .unknown }
        var lo: UInt64 = 0, hi: UInt64 = 0
        var i = 0
        while i < count && i < 8 {
            lo |= UInt64(p[i]) << (UInt64(i) &* 8)
            i &+= 1
        }
        while i < count {
            hi |= UInt64(p[i]) << (UInt64(i &- 8) &* 8)
            i &+= 1
        }
        hi |= UInt64(count) << 56
        return PackedKey(lo: lo, hi: hi)
    }
}

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
    // MARK: - Whitespace

    /// Skips JSON whitespace, counting lines. Returns false at the end of input.
    @inline(__always) func skipWhitespace() throws(FeedError) -> Bool {
        while true {
            let p = buffer, e = end
            var i = pos
            while i < e {
                let b = p[i]
                if b > 0x20 { pos = i; return true }
                if b == 0x0A {
                    line &+= 1
                    lineStart = base + Int64(i) + 1
                } else if b != 0x20 && b != 0x09 && b != 0x0D {
                    pos = i
                    return true
                }
                i &+= 1
            }
            pos = i
            guard try refill() else { return false }
        }
    }

    /// The next significant byte (not consumed); at the end of input, a truncation error.
    @inline(__always) func nextToken(_ context: @autoclosure () -> String) throws(FeedError) -> UInt8 {
        if pos < end, buffer[pos] > 0x20 { return buffer[pos] }
        guard try skipWhitespace() else { throw unexpectedEnd(context()) }
        return buffer[pos]
    }

    /// Reads and consumes one byte; at the end of input, a truncation error.
    @inline(__always) func nextRawByte(_ context: @autoclosure () -> String) throws(FeedError) -> UInt8 {
        guard try ensure() else { throw unexpectedEnd(context()) }
        let b = buffer[pos]
        pos &+= 1
        return b
    }

    /// Consumes `byte` after optional whitespace or throws a syntax error naming `what`.
    @inline(__always) func expect(_ byte: UInt8, _ what: @autoclosure () -> String) throws(FeedError) {
        let c = try nextToken(what())
        guard c == byte else { throw syntaxError(expected: what(), found: c) }
        pos &+= 1
    }

    func syntaxError(expected: String, found: UInt8) -> FeedError {
        error(.syntax, "\(expected), found \(describeByte(found))")
    }

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

    // MARK: - Numbers

    /// Reads a number literal starting at `pos`.
    @inline(__always) func readNumber() throws(FeedError) -> JSONNumber {
        // Fast path: the literal ends inside the buffer; parse it in one pass, in place.
        let available = end &- pos
        let (number, length) = scanJSONNumber(buffer + pos, available)
        if length < available, let number, !isNumberByte(buffer[pos &+ length]) {
            pos &+= length
            return number
        }
        return try readNumberSlowly()
    }

    /// Collects the literal across chunk boundaries, then parses it (and reports errors).
    private func readNumberSlowly() throws(FeedError) -> JSONNumber {
        let start = offset
        let p = buffer, e = end
        var i = pos
        while i < e, isNumberByte(p[i]) { i &+= 1 }
        var digits: UnsafePointer<UInt8>
        var count: Int
        if i < e {
            // The whole literal is in the buffer: parse it in place.
            digits = UnsafePointer(p + pos)
            count = i &- pos
            pos = i
        } else {
            count = 0
            while true {
                let p = buffer, e = end
                var i = pos
                while i < e, isNumberByte(p[i]) {
                    guard count < Self.maximumNumberLength else {
                        throw error(.invalidNumber,
                                    "number literal longer than \(Self.maximumNumberLength) characters", at: start)
                    }
                    numberScratch[count] = p[i]
                    count &+= 1
                    i &+= 1
                }
                pos = i
                if i < e { break }
                guard try refill() else { break }
            }
            digits = UnsafePointer(numberScratch)
        }
        guard count <= Self.maximumNumberLength else {
            throw error(.invalidNumber, "number literal longer than \(Self.maximumNumberLength) characters", at: start)
        }
        guard let number = parseJSONNumber(digits, count) else {
            let text = String(decoding: UnsafeBufferPointer(start: digits, count: min(count, 40)), as: UTF8.self)
            throw error(.invalidNumber, "invalid number '\(text)'", at: start)
        }
        return number
    }

    // MARK: - Literals and skipping

    /// Consumes `true`, `false` or `null` starting at `pos`; returns its first byte.
    @inline(__always) func readLiteral() throws(FeedError) -> UInt8 {
        if end &- pos >= 4 {
            let word = UnsafeRawPointer(buffer + pos).loadUnaligned(as: UInt32.self)
            if word == 0x6C6C_756E || word == 0x6575_7274 {  // "null", "true" (little-endian)
                let first = buffer[pos]
                pos &+= 4
                return first
            }
        }
        return try readLiteralSlowly()
    }

    private func readLiteralSlowly() throws(FeedError) -> UInt8 {
        let start = offset
        let first = buffer[pos]
        let literal: StaticString
        switch first {
        case UInt8(ascii: "t"): literal = "true"
        case UInt8(ascii: "f"): literal = "false"
        case UInt8(ascii: "n"): literal = "null"
        default: throw error(.syntax, "expected a value, found \(describeByte(first))")
        }
        let bytes = UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount)
        for expected in bytes {
            let c = try nextRawByte("inside the literal '\(literal)'")
            guard c == expected else {
                throw error(.syntax, "invalid literal: expected '\(literal)'", at: start)
            }
        }
        return first
    }

    /// ``skipValue()`` with the common cases (a string, `null`, a number) inlined.
    @inline(__always) func skipValueFast() throws(FeedError) {
        let c = buffer[pos]
        if c == quote {
            pos &+= 1
            try skipString()
        } else if c == UInt8(ascii: "n"), end &- pos >= 4,
                  UnsafeRawPointer(buffer + pos).loadUnaligned(as: UInt32.self) == 0x6C6C_756E {
            pos &+= 4
        } else if (c &- 0x30) < 10 || c == UInt8(ascii: "-") {
            _ = try readNumber()
        } else {
            try skipValue()
        }
    }

    /// Skips one complete value starting at `pos` (a significant byte), validating its syntax.
    /// Nesting is tracked on a fixed stack, never by recursion.
    func skipValue() throws(FeedError) {
        var c = buffer[pos]
        var depth = 0
        while true {
            // Here `c` (at pos) starts a value.
            switch c {
            case quote:
                pos &+= 1
                try skipString()
            case UInt8(ascii: "-"), 0x30...0x39:
                _ = try readNumber()
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                guard depth < maximumDepth else {
                    throw error(.nestingTooDeep, "arrays and objects nested more than \(maximumDepth) deep")
                }
                containerStack[depth] = c
                depth &+= 1
                pos &+= 1
                let closer: UInt8 = c == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
                let next = try nextToken("inside an \(c == UInt8(ascii: "{") ? "object" : "array")")
                if next == closer {
                    pos &+= 1
                    depth &-= 1
                } else {
                    if c == UInt8(ascii: "{") { try skipMemberName() }
                    c = try nextToken("where a value was expected")
                    continue
                }
            default:
                _ = try readLiteral()
            }
            // After a value: close containers or move to the next element.
            while true {
                if depth == 0 { return }
                let container = containerStack[depth &- 1]
                let isObject = container == UInt8(ascii: "{")
                let next = try nextToken("inside an \(isObject ? "object" : "array")")
                if next == UInt8(ascii: ",") {
                    pos &+= 1
                    if isObject {
                        _ = try nextToken("inside an object")
                        try skipMemberName()
                    }
                    c = try nextToken("where a value was expected")
                    break
                }
                if next == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    pos &+= 1
                    depth &-= 1
                    continue
                }
                throw syntaxError(expected: isObject ? "expected ',' or '}' in an object" : "expected ',' or ']' in an array",
                                  found: next)
            }
        }
    }

    /// Skips `"name" :` at `pos`.
    private func skipMemberName() throws(FeedError) {
        let c = buffer[pos]
        guard c == quote else { throw syntaxError(expected: "expected a member name in double quotes", found: c) }
        pos &+= 1
        try skipString()
        try expect(UInt8(ascii: ":"), "expected ':' after a member name")
    }
}

@inline(__always) func isNumberByte(_ b: UInt8) -> Bool {
    (b &- 0x30) < 10 || b == 0x2E || b == 0x2D || b == 0x2B || b | 0x20 == 0x65
}

private let powersOfTen: [Double] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
    1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
]

/// Parses a JSON number literal (RFC 8259 grammar). Integers that fit `Int64` are exact;
/// decimals with at most 2⁵³ in the significand and a power of ten within ±22 use one
/// exactly-rounded multiplication or division (Clinger's fast path); anything else falls
/// back to the standard library's correctly rounded `Double(_:)`.
func parseJSONNumber(_ s: UnsafePointer<UInt8>, _ n: Int) -> JSONNumber? {
    let (number, length) = scanJSONNumber(s, n)
    return length == n ? number : nil
}

/// Parses the longest number literal at the start of `s[0..<n]`; returns it (nil if the
/// grammar failed) and where parsing stopped.
@inline(__always)
func scanJSONNumber(_ s: UnsafePointer<UInt8>, _ n: Int) -> (JSONNumber?, Int) {
    var i = 0
    var negative = false
    if i < n, s[i] == UInt8(ascii: "-") {
        negative = true
        i = 1
    }
    guard i < n, (s[i] &- 0x30) < 10 else { return (nil, i) }
    var mantissa: UInt64 = 0
    var overflow = false
    var exponent = 0
    var isInteger = true
    if s[i] == 0x30 {
        i &+= 1
        if i < n, (s[i] &- 0x30) < 10 { return (nil, i) }  // leading zero
    } else {
        while i < n, (s[i] &- 0x30) < 10 {
            if mantissa < 1_000_000_000_000_000_000 {
                mantissa = mantissa &* 10 &+ UInt64(s[i] &- 0x30)
            } else {
                overflow = true
            }
            i &+= 1
        }
    }
    if i < n, s[i] == UInt8(ascii: ".") {
        isInteger = false
        i &+= 1
        guard i < n, (s[i] &- 0x30) < 10 else { return (nil, i) }
        while i < n, (s[i] &- 0x30) < 10 {
            if mantissa < 1_000_000_000_000_000_000 {
                mantissa = mantissa &* 10 &+ UInt64(s[i] &- 0x30)
                exponent &-= 1
            } else {
                overflow = true
            }
            i &+= 1
        }
    }
    if i < n, s[i] | 0x20 == UInt8(ascii: "e") {
        isInteger = false
        i &+= 1
        var exponentNegative = false
        if i < n, s[i] == UInt8(ascii: "+") || s[i] == UInt8(ascii: "-") {
            exponentNegative = s[i] == UInt8(ascii: "-")
            i &+= 1
        }
        guard i < n, (s[i] &- 0x30) < 10 else { return (nil, i) }
        var e = 0
        while i < n, (s[i] &- 0x30) < 10 {
            if e < 100_000 { e = e &* 10 &+ Int(s[i] &- 0x30) }
            i &+= 1
        }
        exponent &+= exponentNegative ? -e : e
    }
    if !overflow {
        if isInteger {
            if negative, mantissa <= UInt64(Int64.max) {
                return (JSONNumber(integer: -Int64(mantissa), double: -Double(mantissa)), i)
            }
            if !negative, mantissa <= UInt64(Int64.max) {
                return (JSONNumber(integer: Int64(mantissa), double: Double(mantissa)), i)
            }
        } else if mantissa <= 1 << 53, exponent >= -22, exponent <= 22 {
            var d = Double(mantissa)
            if exponent < 0 { d /= powersOfTen[-exponent] } else { d *= powersOfTen[exponent] }
            return (JSONNumber(integer: nil, double: negative ? -d : d), i)
        }
    }
    let text = String(decoding: UnsafeBufferPointer(start: s, count: i), as: UTF8.self)
    guard let d = Double(text) else { return (nil, i) }
    return (JSONNumber(integer: nil, double: d), i)
}

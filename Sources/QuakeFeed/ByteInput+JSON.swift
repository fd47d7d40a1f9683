// The JSON tokenizer: whitespace, strings, numbers, literals and iterative value skipping,
// working directly on ByteInput's buffer. Values nobody asked for are scanned, never decoded.

private let quote: UInt8 = 0x22

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

// RFC 4180 field reading on ByteInput: quoted fields with "" escapes, commas and newlines
// inside quotes, CRLF or LF record ends.

private let quote: UInt8 = 0x22, comma: UInt8 = 0x2C, lf: UInt8 = 0x0A, cr: UInt8 = 0x0D

/// What ended a CSV field.
enum CSVTerminator {
    case comma, endOfRecord, endOfInput
}

extension ByteInput {
    /// Reads one field at `pos` and its terminator. With `collect`, the field's bytes are in the
    /// scratch (quotes removed, `""` unescaped; `scratchOverflowed` if too long).
    /// `lastFieldLength` is the field's raw length either way.
    func readCSVField(collect: Bool) throws(FeedError) -> CSVTerminator {
        resetScratch()
        lastFieldLength = 0
        guard try ensure() else { return .endOfInput }
        if buffer[pos] == quote {
            try readQuotedCSVField(collect: collect)
            guard try ensure() else { return .endOfInput }
            let b = buffer[pos]
            guard b == comma || b == lf || b == cr else {
                throw syntaxError(expected: "expected ',' or the end of the line after a closing quote", found: b)
            }
        }
        while true {
            let p = buffer, e = end
            var i = pos
            while i < e {
                let b = p[i]
                if b == comma || b == lf || b == cr { break }
                i &+= 1
            }
            if collect { appendScratch(p + pos, i &- pos) }
            lastFieldLength &+= i &- pos
            pos = i
            if i < e { break }
            guard try refill() else { return .endOfInput }
        }
        let b = buffer[pos]
        pos &+= 1
        if b == comma { return .comma }
        if b == cr, try ensure(), buffer[pos] == lf { pos &+= 1 }
        line &+= 1
        lineStart = offset
        return .endOfRecord
    }

    /// Reads `"…"` at `pos`, leaving `pos` after the closing quote.
    private func readQuotedCSVField(collect: Bool) throws(FeedError) {
        pos &+= 1
        lastFieldLength &+= 1
        while true {
            let p = buffer, e = end
            var i = pos
            while i < e {
                let b = p[i]
                if b == quote { break }
                if b == lf {
                    line &+= 1
                    lineStart = base + Int64(i) + 1
                }
                i &+= 1
            }
            if collect { appendScratch(p + pos, i &- pos) }
            lastFieldLength &+= i &- pos
            pos = i
            if i == e {
                guard try refill() else { throw unexpectedEnd("inside a quoted CSV field") }
                continue
            }
            pos &+= 1
            lastFieldLength &+= 1
            // `""` is an escaped quote; a lone `"` closes the field.
            guard try ensure(), buffer[pos] == quote else { return }
            if collect { appendScratch(quote) }
            pos &+= 1
            lastFieldLength &+= 1
        }
    }
}

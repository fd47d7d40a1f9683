/// A JSON number: the exact integer when the literal is an integer that fits `Int64`,
/// and its `Double` value (possibly ±infinity for literals such as `1e400`).
struct JSONNumber {
    var integer: Int64?
    var double: Double
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

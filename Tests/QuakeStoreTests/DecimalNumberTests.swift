import QuakeModel
import QuakeStore
import Testing

/// Issue 57.4: the one parser of numbers typed in the `:` line and the commands' options.
@Suite struct DecimalNumberTests {
    @Test(arguments: [("4.5", 4.5, "4.5"), ("04.50", 4.5, "4.5"), ("-0", 0, "0"), ("-1.25", -1.25, "-1.25"), (".5", 0.5, "0.5"),
                      ("7.", 7, "7"), (" 3 ", 3, "3"), ("999999999999999", 999_999_999_999_999, "999999999999999"),
                      ("0.000000000000001", 1e-15, "0.000000000000001")])
    func aPlainDecimalIsReadAndWrittenBackWithoutNeedlessZeros(_ text: String, _ value: Double, _ canonical: String) throws {
        let number = try DecimalNumber.parse(text).get()
        #expect(number.value == value)
        #expect(number.text == canonical)
        #expect(try DecimalNumber.parse(number.text).get() == number, "the text written back reads as the same number")
    }

    @Test(arguments: ["", "-", ".", "1e3", "inf", "nan", "0x10", "1,5", "--1", "1-", "٣", "4.5.1", "+4"])
    func whatIsNotAPlainDecimalIsNotANumber(_ text: String) {
        #expect(DecimalNumber.parse(text) == .failure(.notANumber), "\(text)")
    }

    @Test(arguments: ["9999999999999999999", "1000000000000000", "4.0000000000000001", "-1234567890123456"])
    func moreDigitsThanADoubleHoldsExactlyIsRefusedAsInexact(_ text: String) {
        #expect(DecimalNumber.parse(text) == .failure(.inexact), "\(text)")
    }
}

import Foundation

/// What one download may cost (issue 29), set on the command line by `quaketui`:
///
/// - **stall**: no byte from the server for this long fails it (`timed out`);
/// - **deadline**: it fails once it has run longer than `2 × stall + bytes received ÷ minimumRate`,
///   so a server that trickles (a byte a second) is cut off after about `2 × stall` (60 s), and
///   a big download gets as long as its size needs at `minimumRate` (4 KiB/s);
/// - **inflation**: a `Content-Encoding` may inflate to at most `allowance + ratio × bytes on
///   the wire`, the rule `FeedReader` applies to gzip files;
/// - **size**: the body (decoded) may bring at most `maximumBytes`, so a server that sends
///   forever, fast, fails the download instead of filling the disk.
struct Limits: Sendable {
    var stall: TimeInterval = 30
    /// Bytes per second a download must average once `stall` has passed.
    var minimumRate: Double = 4096
    var maximumRatio: Int64 = 100
    var allowance: Int64 = 64 << 20
    var maximumBytes: Int64 = 1 << 30

    /// The latest a download that has received `bytes` may still be running, in seconds from its start.
    func deadline(after bytes: Int64) -> TimeInterval {
        2 * stall + Double(bytes) / minimumRate
    }

    /// Whether `decoded` bytes are too many for `wire` bytes of compressed input.
    func isBomb(decoded: Int64, wire: Int64) -> Bool {
        let (scaled, overflow) = maximumRatio.multipliedReportingOverflow(by: wire)
        return !overflow && decoded > allowance &+ scaled
    }

    /// `30 s`, `1.5 s`: seconds as the messages say them.
    static func seconds(_ value: TimeInterval) -> String {
        value == value.rounded() ? "\(Int(value)) s" : String(format: "%.1f s", value)
    }
}

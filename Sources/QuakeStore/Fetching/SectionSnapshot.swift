import QuakeModel
import Foundation

/// The day sections of the plain list (every quake, newest first) as a browser last counted
/// them, kept in `sections.cache` beside the store, so that the next launch in the same time
/// zone starts from them and merges the history committed since, as a live browser merges a
/// commit (or, past what a merge lists, adds the rows that commits which only inserted added),
/// instead of reading every kept time bucket: 166,669 rows and 20 ms at 5,000,000 quakes over
/// five years, a million rows for ComCat's century.
///
/// A cache, never a source of truth: a file that is missing, torn, for another zone, drawn by
/// another build or under other time zone rules, for another store (its history token must name
/// the same commit: its time and writing process), or whose merged total differs from the
/// store's own, is ignored and the sections are counted again; so is a merge that finds a row
/// in a day the snapshot lacks. Written whole (a new temporary file renamed over it, mode 0600);
/// a failed write is ignored. A store written around its history (raw SQL that moves quakes
/// between days without changing their number) is not seen, as a running browser does not
/// see it either: delete the file.
///
/// ```swift
/// let snapshot = SectionSnapshot.load(from: container.directory)
/// let controller = try FetchedResultsController(container: container, request: plain, resuming: snapshot)
/// try controller.snapshot()?.write(to: container.directory)
/// ```
public struct SectionSnapshot: Equatable, Sendable {
    public static let fileName = "sections.cache"
    /// Bumped when the sections a count produces change (their keys, ids or titles).
    static let format: UInt32 = 1
    private static let magic: [UInt8] = Array("QTSECT".utf8)

    /// The time zone the days are in (`TimeZone.identifier`).
    let timeZone: String
    /// What drew the days: this program's build and the system's rules for the zone
    /// (`rulesFingerprint`); either changed, the days are counted again.
    let rules: String
    /// The commit the sections reflect, and that commit's time and writing process, which tell
    /// this store's commit from another store's with the same token.
    let token: HistoryToken
    let committedAt: Int64
    let origin: String
    let sections: [QuakeSection]

    /// The commit `token` names in `db`, as a snapshot records it; nil when the history no longer
    /// holds it (purged, or an empty store).
    static func commit(_ db: Connection, token: HistoryToken) throws -> (time: Int64, origin: String)? {
        let statement = try db.prepare("SELECT timestamp, origin FROM history WHERE token = ?")
        try statement.bind(token.rawValue, at: 1)
        guard try statement.step() else { return nil }
        return (statement.int64(at: 0), statement.text(at: 1))
    }

    /// Whether this snapshot was taken of `db`'s history, in `calendar`'s zone, under the same rules.
    func fits(_ db: Connection, days calendar: DayCalendar) throws -> Bool {
        let zone = calendar.calendar.timeZone
        guard timeZone == zone.identifier, rules == Self.rulesFingerprint(zone),
              let commit = try Self.commit(db, token: token), commit == (committedAt, origin) else { return false }
        // Some days drawn again as the calendar draws them now: the first, the last and 64
        // between, a check of the rules beyond the fingerprint's.
        let step = max(1, sections.count / 64)
        for index in Set(stride(from: 0, to: sections.count, by: step)).union([sections.count - 1]) {
            let section = sections[index]
            guard case .day(let start, _) = section.key else { return false }
            let day = calendar.day(containing: start)
            guard day.key == section.key, day.id == section.id, day.title == section.title else { return false }
        }
        return true
    }

    /// This executable's size and modification time (its build: the code that draws days, and
    /// the time zone data compiled into Foundation) and those of the system's rules for `zone`
    /// (`/usr/share/zoneinfo`, which a tzdata update rewrites).
    static func rulesFingerprint(_ zone: TimeZone) -> String {
        func stamp(_ path: String) -> String {
            var info = stat()
            guard stat(path, &info) == 0 else { return "-" }
            return "\(info.st_size):\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)"
        }
        return "\(stamp("/proc/self/exe")) \(stamp("/usr/share/zoneinfo/" + zone.identifier))"
    }

    // MARK: The file

    /// The snapshot in `directory`; nil when there is none that reads whole. Whether it fits a
    /// store, a zone and the rules of the day is `fits`'.
    public static func load(from directory: URL) -> SectionSnapshot? {
        readFile(directory.appendingPathComponent(fileName).path).flatMap(decode)
    }

    /// The most a snapshot file may hold: ComCat's century is about 46,000 days, 3 MB.
    static let maximumBytes = 64 << 20
    /// The most quakes a snapshot may count, a day or in all (far past any catalogue, and
    /// nowhere near overflowing the offsets that add them up).
    static let maximumRows: UInt64 = 1 << 40

    /// A regular file's bytes, at most `maximumBytes`; nil for anything else (a link, a FIFO
    /// that would block, a directory, a file too large), as a hostile state directory may hold.
    private static func readFile(_ path: String) -> Data? {
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_size <= maximumBytes else { return nil }
        var data = Data(count: Int(info.st_size))
        let read = data.withUnsafeMutableBytes { buffer in
            var done = 0
            while done < buffer.count {
                let n = Foundation.read(fd, buffer.baseAddress! + done, buffer.count - done)
                if n < 0, errno == EINTR { continue }
                guard n > 0 else { break }
                done += n
            }
            return done
        }
        return read == data.count ? data : nil
    }

    /// Writes the snapshot to `directory` (best effort: a cache that cannot be written is not kept).
    public func write(to directory: URL) {
        let url = directory.appendingPathComponent(Self.fileName)
        let temporary = directory.appendingPathComponent(".\(Self.fileName).\(getpid())")
        let bytes = encoded()
        unlink(temporary.path)  // a leftover, or a link planted there: never written through
        let fd = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { return }
        let written = bytes.withUnsafeBytes { Foundation.write(fd, $0.baseAddress!, $0.count) }
        close(fd)
        guard written == bytes.count, rename(temporary.path, url.path) == 0 else {
            unlink(temporary.path)
            return
        }
    }

    /// magic, format, then the fields; the sections as start, last, count and two strings each;
    /// a checksum (FNV-1a) of everything before it last, so a torn file reads as none.
    func encoded() -> [UInt8] {
        var out = Self.magic
        func put(_ value: UInt64) { withUnsafeBytes(of: value.littleEndian) { out += $0 } }
        func put(_ text: String) {
            put(UInt64(text.utf8.count))
            out += text.utf8
        }
        put(UInt64(Self.format))
        put(timeZone)
        put(rules)
        put(UInt64(bitPattern: token.rawValue))
        put(UInt64(bitPattern: committedAt))
        put(origin)
        put(UInt64(sections.count))
        for section in sections {
            guard case .day(let start, let last) = section.key else { preconditionFailure("a day section") }
            put(UInt64(bitPattern: start))
            put(UInt64(bitPattern: last))
            put(UInt64(section.count))
            put(section.id)
            put(section.title)
        }
        put(fnv1a(out))
        return out
    }

    static func decode(_ data: Data) -> SectionSnapshot? {
        let bytes = [UInt8](data)
        guard bytes.count >= magic.count + 16, bytes.starts(with: magic) else { return nil }
        let body = bytes[..<(bytes.count - 8)]
        var stored = Reader(bytes: bytes[body.endIndex...])
        guard stored.integer() == fnv1a(body) else { return nil }
        var reader = Reader(bytes: body)
        reader.position = magic.count
        guard reader.integer() == UInt64(format),
              let timeZone = reader.text(), let rules = reader.text(), let token = reader.integer(), let committedAt = reader.integer(),
              let origin = reader.text(), let count = reader.integer(), count <= UInt64(bytes.count / 40) else { return nil }
        var sections: [QuakeSection] = []
        sections.reserveCapacity(Int(count))
        var previous: Int64?
        var total = 0
        for _ in 0..<count {
            guard let start = reader.integer().map(Int64.init(bitPattern:)), let last = reader.integer().map(Int64.init(bitPattern:)),
                  let rows = reader.integer(), rows > 0, rows <= maximumRows, let id = reader.text(), let title = reader.text(),
                  start <= last, previous.map({ last < $0 }) ?? true else { return nil }  // newest first, apart
            previous = start
            total += Int(rows)
            guard total <= maximumRows else { return nil }
            sections.append(QuakeSection(id: id, title: title, count: Int(rows), key: .day(start: start, last: last)))
        }
        guard reader.position == reader.bytes.endIndex else { return nil }
        return SectionSnapshot(timeZone: timeZone, rules: rules, token: HistoryToken(rawValue: Int64(bitPattern: token)),
                               committedAt: Int64(bitPattern: committedAt), origin: origin, sections: sections)
    }

    /// Reads the little-endian integers and length-prefixed strings `encoded()` writes, or nil
    /// past the end.
    private struct Reader {
        let bytes: ArraySlice<UInt8>
        var position: Int

        init(bytes: ArraySlice<UInt8>) {
            self.bytes = bytes
            position = bytes.startIndex
        }

        mutating func integer() -> UInt64? {
            guard bytes.endIndex - position >= 8 else { return nil }
            var value: UInt64 = 0
            for k in 0..<8 { value |= UInt64(bytes[position + k]) << (8 * UInt64(k)) }
            position += 8
            return value
        }

        mutating func text() -> String? {
            guard let length = integer(), length <= UInt64(bytes.endIndex - position) else { return nil }
            defer { position += Int(length) }
            return String(validating: bytes[position..<(position + Int(length))], as: UTF8.self)
        }
    }
}

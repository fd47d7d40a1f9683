import Foundation

/// The day sections of the plain list (every quake, newest first) as a browser last counted
/// them, kept in `sections.cache` beside the store, so that the next launch in the same time
/// zone starts from them and merges the history committed since, as a live browser merges a
/// commit, instead of reading every kept time bucket: 166,669 rows and 20 ms at 5,000,000
/// quakes over five years, a million rows for ComCat's century.
///
/// A cache, never a source of truth: a file that is missing, torn, for another zone, or for
/// another store (its history token must name the same commit: its time and writing process),
/// or whose merged total differs from the store's own, is ignored and the sections are counted
/// again. Written whole (a temporary file renamed over it, mode 0600); a failed write is ignored.
///
/// ```swift
/// let snapshot = SectionSnapshot.load(from: container.directory, timeZone: zone)
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

    /// Whether this snapshot was taken of `db`'s history and in `calendar`'s zone.
    func fits(_ db: Connection, days calendar: DayCalendar) throws -> Bool {
        guard timeZone == calendar.calendar.timeZone.identifier,
              let commit = try Self.commit(db, token: token), commit == (committedAt, origin) else { return false }
        // The first and last days as the calendar draws them today (a zone's rules can change
        // with the system's time zone data).
        for section in [sections.first, sections.last].compactMap({ $0 }) {
            guard case .day(let start, _) = section.key else { return false }
            let day = calendar.day(containing: start)
            guard day.key == section.key, day.id == section.id, day.title == section.title else { return false }
        }
        return true
    }

    // MARK: The file

    /// The snapshot in `directory` for `timeZone`; nil when there is none that reads whole.
    public static func load(from directory: URL, timeZone: TimeZone) -> SectionSnapshot? {
        guard let data = readFile(directory.appendingPathComponent(fileName).path),
              let snapshot = decode(data), snapshot.timeZone == timeZone.identifier else { return nil }
        return snapshot
    }

    /// The most a snapshot file may hold: ComCat's century is about 46,000 days, 3 MB.
    static let maximumBytes = 64 << 20

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
        let fd = open(temporary.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o600)
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
        put(Self.checksum(out[...]))
        return out
    }

    static func decode(_ data: Data) -> SectionSnapshot? {
        let bytes = [UInt8](data)
        guard bytes.count >= magic.count + 16, bytes.starts(with: magic) else { return nil }
        let body = bytes[..<(bytes.count - 8)]
        var stored = Reader(bytes: bytes[body.endIndex...])
        guard stored.integer() == checksum(body) else { return nil }
        var reader = Reader(bytes: body)
        reader.position = magic.count
        guard reader.integer() == UInt64(format),
              let timeZone = reader.text(), let token = reader.integer(), let committedAt = reader.integer(),
              let origin = reader.text(), let count = reader.integer(), count <= UInt64(bytes.count / 40) else { return nil }
        var sections: [QuakeSection] = []
        sections.reserveCapacity(Int(count))
        var previous: Int64?
        for _ in 0..<count {
            guard let start = reader.integer().map(Int64.init(bitPattern:)), let last = reader.integer().map(Int64.init(bitPattern:)),
                  let rows = reader.integer(), rows > 0, rows < UInt64(Int.max), let id = reader.text(), let title = reader.text(),
                  start <= last, previous.map({ last < $0 }) ?? true else { return nil }  // newest first, apart
            previous = start
            sections.append(QuakeSection(id: id, title: title, count: Int(rows), key: .day(start: start, last: last)))
        }
        guard reader.position == reader.bytes.endIndex else { return nil }
        return SectionSnapshot(timeZone: timeZone, token: HistoryToken(rawValue: Int64(bitPattern: token)),
                               committedAt: Int64(bitPattern: committedAt), origin: origin, sections: sections)
    }

    private static func checksum(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0100_0000_01b3 }
        return hash
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

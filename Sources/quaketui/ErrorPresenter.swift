import Foundation
import QuakeFeed
import QuakeScenes
import QuakeModel
import QuakeStore
import QuakeTUI
import QuakeTUIRuntime

/// How an error is shown: one presenter for the command line and the browser (issue 16), the
/// way bubbletea programs keep one place that turns errors into what people read.
///
/// ```swift
/// let report = ErrorPresenter.report(error)
/// printError("Error: \(report.message)")        // the command line
/// status = report.status                         // the browser's status line
/// ErrorPresenter.log(report, context: "import")  // QUAKETUI_LOG, with the SQL and causes
/// ```
struct ErrorReport: Sendable, Equatable {
    /// What happened and where, with what to do: the sentence a user reads.
    var message: String
    /// A short form for the status line: the first sentence.
    var status: String
    /// Causes and SQL behind the message, for the log only.
    var detail: String?
    var exitCode: ExitCode
}

enum ErrorPresenter {
    /// `storePath`, the command's store: an `SQLiteError` a read let through raw ("SQLite error
    /// 11: database disk image is malformed (in: SELECT …)", of one EIO) is then said as a
    /// `StoreError` of that store, its damage checked (issue 29).
    static func report(_ error: Error, storePath: String? = nil) -> ErrorReport {
        var error = error
        if let sqlite = error as? SQLiteError, let storePath { error = StoreError(sqlite, path: storePath) }
        var message = "\(error)"
        var detail: String?
        switch error {
        case let store as StoreError:
            // "Damaged, move it aside" only once PRAGMA quick_check agrees (issue 29).
            let store = store.confirmingDamage()
            message = "\(store)"
            detail = store.detail
        case let feed as FeedError:
            detail = (feed.underlyingError as? StoreError)?.detail ?? feed.underlyingError.map { "\($0)" }
            message = feed.description
        default:
            break
        }
        message = capitalized(message)
        return ErrorReport(message: message, status: firstSentence(message), detail: detail, exitCode: .failure)
    }

    /// A notice (a message already written for people, e.g. a failed background save): the
    /// same capitalization and short form as an error's.
    static func notice(_ text: String) -> ErrorReport {
        let message = capitalized(text)
        return ErrorReport(message: message, status: firstSentence(message), detail: nil, exitCode: .failure)
    }

    /// Appends the report to the file named by `QUAKETUI_LOG`, if any: one line with the time,
    /// the process, the context, the message, and the detail (bubbletea's `LogToFile`).
    static func log(_ report: ErrorReport, context: String,
                    environment: [String: String] = ProcessInfo.processInfo.environment) {
        guard let path = environment["QUAKETUI_LOG"], !path.isEmpty else { return }
        var line = "\(ISO8601Format.string(from: Date())) quaketui[\(getpid())] \(context): \(report.message)"
        if let detail = report.detail { line += " | \(detail)" }
        line = SafeText.sanitize(line) + "\n"
        let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { return }
        defer { close(fd) }
        _ = line.utf8CString.withUnsafeBufferPointer { write(fd, $0.baseAddress, $0.count - 1) }
    }

    static func firstSentence(_ text: String) -> String {
        guard let end = text.range(of: ". ") else { return text }
        return String(text[..<end.lowerBound]) + "."
    }

    /// Messages start with a capital letter, whoever wrote them; a message that starts with a
    /// path, URL or code (`http://…: cannot download`) keeps it as it is.
    static func capitalized(_ text: String) -> String {
        guard let first = text.first, first.isLowercase else { return text }
        let word = text.prefix { $0 != " " }
        guard word.allSatisfy({ $0.isLetter || $0 == "'" || $0 == "," }) else { return text }
        return first.uppercased() + text.dropFirst()
    }
}

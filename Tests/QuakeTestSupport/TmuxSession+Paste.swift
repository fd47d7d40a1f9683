import Foundation

extension TmuxSession {
    /// Pastes `text` into `target` as a terminal does: bracketed (`paste-buffer -p`), since the
    /// browser asked for it. tmux turns line feeds into carriage returns unless `keepLineFeeds`
    /// (`-r`).
    public func paste(_ target: String, _ text: String, keepLineFeeds: Bool = false) throws {
        try command("set-buffer", "-b", "t", "--", text)
        if keepLineFeeds {
            try command("paste-buffer", "-p", "-r", "-b", "t", "-t", target)
        } else {
            try command("paste-buffer", "-p", "-b", "t", "-t", target)
        }
    }

    /// Pastes `bytes` as they are (any byte, LF kept), bracketed, through a file in `folder`:
    /// `set-buffer` takes only text.
    public func paste(_ target: String, bytes: [UInt8], through folder: URL) throws {
        let file = folder.appendingPathComponent("paste-\(UUID().uuidString.prefix(6))")
        try Data(bytes).write(to: file)
        try command("load-buffer", "-b", "t", file.path)
        try command("paste-buffer", "-p", "-r", "-b", "t", "-t", target)
    }
}

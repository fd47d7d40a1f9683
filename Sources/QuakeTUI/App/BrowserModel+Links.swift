import QuakeStore

/// `o` opens the selected quake's event page, `y` copies it (lazygit's keys). The model only
/// decides what; the runtime runs the browser and writes the clipboard sequence.
extension BrowserModel {
    /// The selected quake's event page: its feed URL when that is an http(s) URL (a feed's
    /// `file:` or `javascript:` link is never opened), nil when there is none.
    func selectedEventPage() throws -> (code: String, url: String?)? {
        guard let code = state.selectedCode, case .row? = layout.line(at: state.cursorLine),
              let quake = try results.quake(code: code) else { return nil }
        let url = quake.record.url.flatMap { url -> String? in
            let lower = url.lowercased()
            let isWeb = lower.hasPrefix("https://") || lower.hasPrefix("http://")
            return isWeb && !url.unicodeScalars.contains { $0.properties.generalCategory == .control || $0 == " " }
                ? url : nil
        }
        return (code, url)
    }

    func openSelectedQuake() throws -> [Effect] {
        guard let page = try selectedEventPage() else {
            state.status.message = "Select a quake first (j/k), then o opens its event page"
            return []
        }
        guard let url = page.url else {
            state.status.message = "Quake \(page.code) has no event page in its feed; y copies its code"
            return []
        }
        return [.openURL(url)]
    }

    func copySelectedQuake() throws -> [Effect] {
        guard let page = try selectedEventPage() else {
            state.status.message = "Select a quake first (j/k), then y copies its event page"
            return []
        }
        let text = page.url ?? page.code
        state.status.message = "Copied \(text) (through the terminal: in tmux, set-clipboard on)"
        return [.copyToClipboard(text)]
    }
}

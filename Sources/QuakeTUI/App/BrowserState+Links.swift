import QuakeModel

/// `o` opens the selected quake's event page, `y` copies it (lazygit's keys). The model only
/// decides what; the runtime reads the quake (`Effect.readQuake`), runs the browser and writes
/// the clipboard sequence.
extension BrowserState {
    /// The selected quake's code when the cursor is on its row (not on a section header).
    private var selectedRowCode: String? {
        guard let code = self.selectedCode, case .row? = layout.line(at: self.cursorLine) else { return nil }
        return code
    }

    /// A quake's event page (`QuakeRecord.eventPage`): nil for a sample quake or a link that is not http(s).
    static func eventPage(of quake: StoredQuake) -> String? { quake.record.eventPage }

    /// What the status line says for `o` on a quake of the bundled sample.
    static func sampleHasNoPage(_ code: String) -> String {
        "\(code) is a sample quake: no event page"
    }

    mutating func openSelectedQuake() -> [Effect] {
        guard let code = selectedRowCode else {
            self.status.message = "Select a quake first (j/k), then o opens its event page"
            return []
        }
        return [.readQuake(code: code, for: .openPage)]
    }

    mutating func openEventPage(code: String, _ quake: StoredQuake?) -> [Effect] {
        guard let quake else {
            self.status.message = "Select a quake first (j/k), then o opens its event page"
            return []
        }
        guard let url = Self.eventPage(of: quake) else {
            self.status.message = quake.record.isSample ? Self.sampleHasNoPage(code)
                : "Quake \(code) has no event page in its feed; y copies its code"
            return []
        }
        return [.openURL(url)]
    }

    mutating func copySelectedQuake() -> [Effect] {
        guard let code = selectedRowCode else {
            self.status.message = "Select a quake first (j/k), then y copies its event page"
            return []
        }
        return [.readQuake(code: code, for: .copyPage)]
    }

    mutating func copyEventPage(code: String, _ quake: StoredQuake?) -> [Effect] {
        guard let quake else {
            self.status.message = "Select a quake first (j/k), then y copies its event page"
            return []
        }
        let text = Self.eventPage(of: quake) ?? code
        self.status.message = "Copied \(text) (through the terminal: in tmux, set-clipboard on)"
        return [.copyToClipboard(text)]
    }
}

/// One input event from the terminal: a key, a mouse action or a resize.
public enum Key: Hashable, Sendable {
    /// A printable character (including space).
    case character(Character)
    /// Control plus a letter, lower-cased: `.control("s")` for ctrl-s.
    case control(Character)
    case up, down, left, right
    case pageUp, pageDown, home, end
    case enter, escape, tab, backTab, backspace, delete
    /// A function key, F1 … F12.
    case function(Int)
    /// A left click at a column and row.
    case click(x: Int, y: Int)
    case wheelUp(x: Int, y: Int)
    case wheelDown(x: Int, y: Int)
    /// Text pasted in one piece (bracketed paste, mode 2004): never keys, whatever it holds.
    case paste(String)
    /// The terminal changed size.
    case resize(columns: Int, rows: Int)
    /// The terminal (or tmux pane) gained or lost focus: focus reports (mode 1004), `ESC [I` and
    /// `ESC [O`. Not keys a person types: they never count as one.
    case focusIn, focusOut
    /// The process received SIGINT, SIGTERM or SIGHUP: save, then return from `Terminal.run`.
    case terminate(signal: Int32)
}

extension Key: CustomStringConvertible {
    /// How help and tests name the key: `ctrl-s`, `shift-Tab`, `PgDn`, `j`.
    public var description: String {
        switch self {
        case .character(" "): "space"
        case .character(let c): String(c)
        case .control(let c): "ctrl-\(c)"
        case .up: "↑"
        case .down: "↓"
        case .left: "←"
        case .right: "→"
        case .pageUp: "PgUp"
        case .pageDown: "PgDn"
        case .home: "Home"
        case .end: "End"
        case .enter: "Enter"
        case .escape: "Esc"
        case .tab: "Tab"
        case .backTab: "shift-Tab"
        case .backspace: "Backspace"
        case .delete: "Delete"
        case .function(let n): "F\(n)"
        case .click(let x, let y): "click(\(x),\(y))"
        case .wheelUp: "wheel-up"
        case .wheelDown: "wheel-down"
        case .paste(let text): "paste(\(text.count) characters)"
        case .resize(let c, let r): "resize(\(c)x\(r))"
        case .terminate(let s): "signal(\(s))"
        case .focusIn: "focus-in"
        case .focusOut: "focus-out"
        }
    }
}

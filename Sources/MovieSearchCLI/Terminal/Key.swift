/// One key (or one pasted run of text) read from the terminal, after `KeyDecoder` has turned the bytes of raw mode
/// into what the person pressed.
///
/// Raw mode gives Enter as CR (`\r`, Ctrl-M) and leaves LF (`\n`) to Ctrl-J, so the two are told apart: Enter is
/// `.enter`, Ctrl-J is `.control("j")`. Tab is Ctrl-I and Backspace is DEL or Ctrl-H (BS), as in readline.
enum Key: Equatable, Hashable, Sendable {
    /// Printable text: one key, or a run of printable bytes that arrived together (a paste). Never holds a control
    /// character.
    case text(String)
    /// Return or Enter (CR, Ctrl-M).
    case enter
    /// A lone Esc, told apart from the start of an escape sequence by a short wait (`KeyDecoder.escapeDelay`).
    case escape
    /// Tab (Ctrl-I).
    case tab
    /// Shift-Tab (`ESC [ Z`).
    case backTab
    /// Backspace: DEL (0x7F) or Ctrl-H (0x08).
    case backspace
    /// Delete (`ESC [ 3 ~`): deletes the character under the cursor.
    case delete
    /// Ctrl and a letter other than those above, as the lowercase ASCII letter (`.control("u")` for Ctrl-U,
    /// `.control("j")` for Ctrl-J); also `"c"` for Ctrl-C, which raw mode delivers as a byte rather than SIGINT.
    case control(Character)
    case up, down, left, right
    case home, end, pageUp, pageDown
}

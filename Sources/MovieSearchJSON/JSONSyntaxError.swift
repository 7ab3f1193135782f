/// Why bytes are not JSON (RFC 8259), and where.
///
/// `offset` is exact and meant for tools; `line` and `column` are for people reading the file in an editor:
/// lines are ended by LF, CR LF or a lone CR, and `column` counts Unicode scalars, not bytes, so that a title
/// written in Cyrillic or Chinese does not push the column far right of the character at fault.
package struct JSONSyntaxError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Line of the offending byte, counting from 1.
    package var line: Int
    /// Column of the offending byte, counting Unicode scalars from 1.
    package var column: Int
    /// Offset of the offending byte, counting bytes from 0. Equals the input's length when the input ended
    /// too early.
    package var offset: Int
    /// What is wrong, in a few words: "unexpected '}', expected ',' or ']' after an array element".
    package var reason: String

    package init(line: Int, column: Int, offset: Int, reason: String) {
        self.line = line
        self.column = column
        self.offset = offset
        self.reason = reason
    }

    package var description: String {
        "line \(line), column \(column) (byte \(offset)): \(reason)"
    }
}

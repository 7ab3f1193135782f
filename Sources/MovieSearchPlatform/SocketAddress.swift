/// An IPv4 or IPv6 address and a TCP port, parsed from `host:port` as `--listen` takes it: `127.0.0.1:8080`,
/// `[::1]:8080`, `localhost:8080` (IPv4 loopback), `0.0.0.0:80`; port 0 asks the system for a free port.
///
/// Names other than `localhost` are refused rather than resolved: a server's listening address is chosen by its
/// user, and resolving a name would make where it listens depend on DNS.
///
/// Here beside `FilePath`, as the value the socket calls take and give (`Syscalls.listenTCP`, `acceptConnection`):
/// the HTTP server, the command line's `--listen` and the tests share it.
package struct SocketAddress: Equatable, Sendable, CustomStringConvertible {
    /// The address family and bytes.
    package enum Host: Equatable, Sendable {
        /// Four bytes, in network order.
        case ipv4(UInt8, UInt8, UInt8, UInt8)
        /// Sixteen bytes, in network order.
        case ipv6([UInt8])
    }

    /// The host part.
    package var host: Host
    /// The TCP port, 0 for "any free port" before binding.
    package var port: UInt16

    /// An address of these parts.
    package init(host: Host, port: UInt16) {
        self.host = host
        self.port = port
    }

    /// Parses `host:port`; nil when it is not an IPv4 address, a bracketed IPv6 address or `localhost`, followed
    /// by `:` and a port from 0 to 65535.
    package init?(parsing text: String) {
        let hostText: Substring, portText: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else {
                return nil
            }
            hostText = text[text.index(after: text.startIndex)..<close]
            portText = text[text.index(close, offsetBy: 2)...]
        } else {
            guard let colon = text.lastIndex(of: ":") else { return nil }
            hostText = text[..<colon]
            portText = text[text.index(after: colon)...]
        }
        guard !portText.isEmpty, portText.count <= 5, portText.allSatisfy({ $0.isASCII && $0.isNumber }),
              let port = UInt16(portText) else { return nil }
        guard let host = Self.parseHost(hostText, bracketed: text.hasPrefix("[")) else { return nil }
        self.init(host: host, port: port)
    }

    /// `localhost`, a dotted IPv4 address, or (inside brackets) an IPv6 address.
    private static func parseHost(_ text: Substring, bracketed: Bool) -> Host? {
        if bracketed {
            return Syscalls.ipv6Address(parsing: String(text)).map(Host.ipv6)
        }
        if text.lowercased() == "localhost" { return .ipv4(127, 0, 0, 1) }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var bytes: [UInt8] = []
        for part in parts {
            // Plain decimal only: no leading zeros (which some parsers read as octal), no signs.
            guard !part.isEmpty, part.count <= 3, part.allSatisfy({ $0.isASCII && $0.isNumber }),
                  part == "0" || !part.hasPrefix("0"), let byte = UInt8(part) else { return nil }
            bytes.append(byte)
        }
        return .ipv4(bytes[0], bytes[1], bytes[2], bytes[3])
    }

    /// Whether the host is a loopback address: 127.0.0.0/8, `::1`, or an IPv4-mapped loopback address.
    package var isLoopback: Bool {
        switch host {
        case let .ipv4(first, _, _, _): return first == 127
        case let .ipv6(bytes):
            if bytes == [UInt8](repeating: 0, count: 15) + [1] { return true }
            return bytes[0..<10].allSatisfy { $0 == 0 } && bytes[10] == 0xFF && bytes[11] == 0xFF && bytes[12] == 127
        }
    }

    /// The host as it goes into a URL or a `Host` header: `127.0.0.1`, `[::1]`.
    package var hostText: String {
        switch host {
        case let .ipv4(a, b, c, d): return "\(a).\(b).\(c).\(d)"
        case let .ipv6(bytes):
            return "[" + Syscalls.ipv6Text(bytes) + "]"
        }
    }

    /// `host:port`, as a URL's authority.
    package var description: String { "\(hostText):\(port)" }
}

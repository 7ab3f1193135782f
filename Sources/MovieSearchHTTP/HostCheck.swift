import MovieSearchPlatform

/// Whether a `Host` header names this server: the guard against DNS rebinding, where a page of another site, whose
/// name its owner made resolve to 127.0.0.1, reaches a local server but still sends its own name.
enum HostCheck {
    /// True when `host` is the listening address, the address the client reached, `localhost` or a loopback
    /// address, each with the listening port (80 when none is given); or a name of `allowedNames`, with any port.
    /// The `Host` values a browser or client sends most often for this server, for an exact comparison before the
    /// parse: `127.0.0.1:8080`, `localhost:8080`.
    static func commonValues(server: SocketAddress) -> Set<String> {
        var values: Set<String> = ["localhost:\(server.port)"]
        if server.isLoopback { values.insert(server.description) }
        if server.port == 80 { values.insert("localhost") }
        return values
    }

    static func allows(_ host: String, server: SocketAddress, local: SocketAddress?, allowedNames: Set<String>)
        -> Bool
    {
        guard let (name, port) = split(host.lowercased()) else { return false }
        if allowedNames.contains(name) { return true }
        guard (port ?? 80) == server.port else { return false }
        if name == "localhost" { return true }
        guard let address = SocketAddress(parsing: "\(name):\(server.port)") else { return false }
        return address.isLoopback || address.host == server.host || address.host == local?.host
    }

    /// The name and the port of `host:port`, `[v6]:port` or a name alone; nil when the port is not a number.
    static func split(_ host: String) -> (name: String, port: UInt16?)? {
        var name = Substring(host), portText: Substring?
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { return nil }
            name = host[...close]
            let rest = host[host.index(after: close)...]
            if !rest.isEmpty {
                guard rest.hasPrefix(":") else { return nil }
                portText = rest.dropFirst()
            }
        } else if let colon = host.firstIndex(of: ":") {
            name = host[..<colon]
            portText = host[host.index(after: colon)...]
        }
        if name.hasSuffix(".") && name.count > 1 && !name.hasPrefix("[") { name = name.dropLast() }  // FQDN dot
        guard let portText else { return (String(name), nil) }
        guard !portText.isEmpty, portText.count <= 5, portText.allSatisfy({ $0.isASCII && $0.isNumber }),
              let port = UInt16(portText) else { return nil }
        return (String(name), port)
    }
}

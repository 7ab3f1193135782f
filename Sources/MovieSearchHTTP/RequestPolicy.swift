import MovieSearchPlatform

/// What the server allows before a request reaches the responder, and the fields that follow from it: the `Host`
/// check (DNS rebinding), writes only from this server's own pages or the CORS origin (`Origin`, and
/// `Sec-Fetch-Site` when there is no `Origin`), the CORS preflight and the CORS fields; and what a CORS origin may
/// be (`checkedCORSOrigin`, the check of `serve --cors-origin`). No socket, no state.
package struct RequestPolicy: Sendable {
    /// Why a request is refused, before the responder sees it.
    struct Refusal: Equatable, Sendable {
        /// 421 (another host) or 403 (a write from elsewhere).
        var status: Int
        /// One line for a person.
        var message: String
    }

    /// Why a text cannot be the CORS origin: it is not what a browser sends as `Origin`, so no request would ever
    /// come from it.
    package struct InvalidOrigin: Error, Equatable, Sendable, CustomStringConvertible {
        /// What an origin is, for messages: `--cors-origin takes <expected>, not '<text>'`.
        package static let expected = "an origin, http://host[:port] or https://host[:port]"
        /// The text given.
        package var text: String

        /// One line for a person.
        package var description: String { "'\(text)' is not \(Self.expected)" }
    }

    /// `text` if it may be the CORS origin: `scheme://host[:port]` with `http` or `https`, nothing after, printable
    /// ASCII, as a browser sends it in `Origin` (compared whole, so `https://app.example/` would never match).
    package static func checkedCORSOrigin(_ text: String) throws(InvalidOrigin) -> String {
        for scheme in ["http://", "https://"] where text.hasPrefix(scheme) {
            let rest = text.dropFirst(scheme.count)
            guard !rest.isEmpty, !rest.contains("/"), !rest.contains("?"), !rest.contains("#"),
                  rest.allSatisfy({ $0.isASCII && !$0.isWhitespace })
            else { break }
            return text
        }
        throw InvalidOrigin(text: text)
    }

    /// The address the server is bound to.
    let server: SocketAddress
    /// `Configuration.allowedHosts`.
    let allowedHosts: Set<String>
    /// `Configuration.corsOrigin`.
    let corsOrigin: String?
    /// `Host` values known good without parsing them (`HostCheck.commonValues`).
    private let commonHosts: Set<String>

    /// The policy of a server bound to `server`.
    init(server: SocketAddress, allowedHosts: Set<String>, corsOrigin: String?) {
        self.server = server
        self.allowedHosts = allowedHosts
        self.corsOrigin = corsOrigin
        commonHosts = HostCheck.commonValues(server: server)
    }

    /// The methods that change nothing: allowed from any origin.
    private static let safeMethods: Set<String> = ["GET", "HEAD", "OPTIONS"]

    /// Why `request` (or its head, before its body) is refused; nil when it may be answered. `local` is the
    /// address the client reached, when the server listens on a wildcard address.
    func refusal(of request: HTTPRequest, local: SocketAddress?) -> Refusal? {
        hostRefusal(request, local: local) ?? originRefusal(request)
    }

    /// 421 when the `Host` names neither this server nor an allowed name (DNS rebinding: a page of another site
    /// whose name now resolves to 127.0.0.1 still sends its own name).
    private func hostRefusal(_ request: HTTPRequest, local: SocketAddress?) -> Refusal? {
        guard let host = request.header("host") else { return nil }  // HTTP/1.0 without one: nothing to check
        if commonHosts.contains(host)
            || HostCheck.allows(host, server: server, local: local, allowedNames: allowedHosts) { return nil }
        return Refusal(status: 421, message: "this server does not answer for host '\(HTTPRequest.excerpt(host))'")
    }

    /// 403 for a write from another site's page: its `Origin` is another's, or (no `Origin`) its `Sec-Fetch-Site`
    /// says `cross-site` or `same-site` (a sibling site is another site here: only the CORS origin is trusted,
    /// and it is named by `Origin`).
    private func originRefusal(_ request: HTTPRequest) -> Refusal? {
        guard !Self.safeMethods.contains(request.method) else { return nil }
        guard let origin = request.header("origin") else {
            guard let site = request.header("sec-fetch-site")?.lowercased(), site == "cross-site" || site == "same-site"
            else { return nil }  // same-origin, none (typed by the user), or no such field: not a page of elsewhere
            return Refusal(status: 403, message: "a \(request.method) from a \(site) page is refused: only this "
                + "server's own pages may change data")
        }
        // The server's own origin: http on this host (checked before). Behind a proxy that ends TLS, the https
        // origin is named with --cors-origin, as any other.
        if let host = request.header("host"), origin == "http://" + host { return nil }
        if let corsOrigin, origin == corsOrigin { return nil }
        return Refusal(status: 403, message: "a \(request.method) from origin '\(HTTPRequest.excerpt(origin))' is "
            + "refused: only this server's own pages may change data")
    }

    /// Whether `request` is a CORS preflight from the CORS origin, which the server answers itself (204).
    func isPreflight(_ request: HTTPRequest) -> Bool {
        guard let corsOrigin, request.method == "OPTIONS", request.header("origin") == corsOrigin else { return false }
        return request.header("access-control-request-method") != nil
    }

    /// The fields a preflight's 204 carries besides `corsFields`.
    static let preflightFields = [
        ("Access-Control-Allow-Methods", "GET, HEAD, PUT, DELETE"), ("Access-Control-Allow-Headers", "Content-Type"),
        ("Access-Control-Max-Age", "600"),
    ]

    /// The CORS fields of every answer when a CORS origin is set: `Access-Control-Allow-Origin` for that origin's
    /// requests, and `Vary: Origin` on all (the answers differ by `Origin`, so a shared cache must not give one
    /// origin's answer to another).
    func corsFields(for request: HTTPRequest?) -> [(String, String)] {
        guard let corsOrigin else { return [] }
        if let request, request.header("origin") == corsOrigin {
            return [("Access-Control-Allow-Origin", corsOrigin), ("Vary", "Origin")]
        }
        return [("Vary", "Origin")]
    }
}

@testable import MovieSearchHTTP
import MovieSearchPlatform
import XCTest

/// `SocketAddress(parsing:)` as `--listen` takes it, `isLoopback` and `description`; and `HostCheck`, the guard
/// against DNS rebinding.
final class SocketAddressTests: XCTestCase {
    private let loopbackV6 = [UInt8](repeating: 0, count: 15) + [1]

    func testParsesIPv4AddressesAndPorts() throws {
        let address = try XCTUnwrap(SocketAddress(parsing: "127.0.0.1:8080"))
        XCTAssertEqual(address, SocketAddress(host: .ipv4(127, 0, 0, 1), port: 8080))
        XCTAssertEqual(address.description, "127.0.0.1:8080")
        XCTAssertEqual(SocketAddress(parsing: "0.0.0.0:0"), SocketAddress(host: .ipv4(0, 0, 0, 0), port: 0))
        XCTAssertEqual(SocketAddress(parsing: "255.255.255.255:65535")?.port, 65535)
        XCTAssertEqual(SocketAddress(parsing: "10.0.0.0:80")?.host, .ipv4(10, 0, 0, 0))
        // A port's leading zeros are decimal, not octal: 0080 is 80.
        XCTAssertEqual(SocketAddress(parsing: "1.2.3.4:0080")?.port, 80)
    }

    func testParsesBracketedIPv6AndLocalhost() throws {
        let v6 = try XCTUnwrap(SocketAddress(parsing: "[::1]:8080"))
        XCTAssertEqual(v6, SocketAddress(host: .ipv6(loopbackV6), port: 8080))
        XCTAssertEqual(v6.description, "[::1]:8080")
        XCTAssertEqual(v6.hostText, "[::1]")
        XCTAssertEqual(SocketAddress(parsing: "[::]:80")?.description, "[::]:80")
        XCTAssertEqual(SocketAddress(parsing: "[2001:DB8::1]:443")?.description, "[2001:db8::1]:443")
        XCTAssertEqual(SocketAddress(parsing: "localhost:80"), SocketAddress(host: .ipv4(127, 0, 0, 1), port: 80))
        XCTAssertEqual(SocketAddress(parsing: "LocalHost:80")?.description, "127.0.0.1:80")
    }

    func testRefusesWhatIsNotHostColonPort() {
        let invalid = [
            "", ":", ":80", "127.0.0.1", "127.0.0.1:", "127.0.0.1:65536", "127.0.0.1:123456", "127.0.0.1:-1",
            "127.0.0.1:+80", "127.0.0.1: 80", "127.0.0.1:8O", "127.0.0.1:８０", " 127.0.0.1:80", "127.0.0.1 :80",
            // IPv4: four plain decimal bytes, no leading zeros (octal to some parsers), no signs, none over 255.
            "127.0.0.01:80", "010.0.0.1:80", "00.0.0.0:80", "256.0.0.1:80", "1.2.3:80", "1.2.3.4.5:80", "1..2.3:80",
            "1.2.3.:80", "+1.2.3.4:80", "0x7f.0.0.1:80", "2130706433:80", "１.2.3.4:80",
            // Names other than localhost are not resolved.
            "example.com:80", "localhost.:80", "localhost",
            // IPv6: brackets required, closed, then a colon and a port.
            "::1:80", "[::1]", "[::1]:", "[::1]80", "[::1:80", "::1]:80", "[::1]:65536", "[127.0.0.1]:80",
            "[localhost]:80", "[::g]:80", "[]:80",
        ]
        for text in invalid {
            XCTAssertNil(SocketAddress(parsing: text), "'\(text)' should be refused")
        }
    }

    func testIsLoopback() throws {
        for text in ["127.0.0.1:1", "127.255.0.9:1", "localhost:1", "[::1]:1", "[::ffff:127.0.0.1]:1"] {
            XCTAssertTrue(try XCTUnwrap(SocketAddress(parsing: text)).isLoopback, text)
        }
        for text in ["0.0.0.0:1", "10.0.0.1:1", "128.0.0.1:1", "[::]:1", "[::2]:1", "[::ffff:10.0.0.1]:1",
                     "[1::1]:1", "[::127.0.0.1]:1"] {
            XCTAssertFalse(try XCTUnwrap(SocketAddress(parsing: text)).isLoopback, text)
        }
    }

    // MARK: - HostCheck

    private let server = SocketAddress(host: .ipv4(127, 0, 0, 1), port: 8080)

    private func allows(_ host: String, server: SocketAddress? = nil, local: SocketAddress? = nil,
                        names: Set<String> = []) -> Bool {
        HostCheck.allows(host, server: server ?? self.server, local: local, allowedNames: names)
    }

    func testHostCheckAllowsThisServerAndLoopbackNamesOnItsPort() {
        for host in ["127.0.0.1:8080", "localhost:8080", "LOCALHOST:8080", "localhost.:8080", "127.9.8.7:8080",
                     "[::1]:8080", "[::ffff:127.0.0.1]:8080"] {
            XCTAssertTrue(allows(host), host)
        }
        // Without a port, a Host means port 80.
        let port80 = SocketAddress(host: .ipv4(127, 0, 0, 1), port: 80)
        XCTAssertTrue(allows("localhost", server: port80))
        XCTAssertTrue(allows("127.0.0.1", server: port80))
        XCTAssertFalse(allows("127.0.0.1"))
    }

    func testHostCheckRefusesWrongPortsAndOtherNames() {
        for host in ["127.0.0.1:8081", "localhost:80", "[::1]:8081", "127.0.0.1:80", "evil.example:8080",
                     "evil.example", "10.0.0.1:8080", "0.0.0.0:8080", "[::]:8080", "localhost.evil.example:8080",
                     "127.0.0.1.evil.example:8080"] {
            XCTAssertFalse(allows(host), host)
        }
    }

    func testHostCheckAllowsConfiguredNamesWithAnyPort() {
        let names: Set<String> = ["movies.lan"]
        for host in ["movies.lan", "movies.lan:8080", "movies.lan:1", "MOVIES.LAN:9999", "movies.lan.:8080"] {
            XCTAssertTrue(allows(host, names: names), host)
        }
        XCTAssertFalse(allows("other.lan:8080", names: names))
        XCTAssertFalse(allows("movies.lan:notaport", names: names))
        XCTAssertFalse(allows("sub.movies.lan:8080", names: names))
    }

    func testHostCheckOnAWildcardAddressAllowsTheAddressReached() {
        let wildcard = SocketAddress(host: .ipv4(0, 0, 0, 0), port: 8080)
        let local = SocketAddress(host: .ipv4(192, 168, 1, 5), port: 8080)
        XCTAssertTrue(allows("192.168.1.5:8080", server: wildcard, local: local))
        XCTAssertTrue(allows("localhost:8080", server: wildcard, local: local))
        XCTAssertFalse(allows("192.168.1.6:8080", server: wildcard, local: local))
        XCTAssertFalse(allows("192.168.1.5:8081", server: wildcard, local: local))
        XCTAssertFalse(allows("evil.example:8080", server: wildcard, local: local))
    }

    func testHostCheckRefusesJunk() {
        let port80 = SocketAddress(host: .ipv4(127, 0, 0, 1), port: 80)
        for host in ["", ":", ":8080", "127.0.0.1:", "127.0.0.1:abc", "127.0.0.1:8080:8080", "127.0.0.1:080800",
                     "127.0.0.1:99999", "[::1", "[::1]x", "[::1]:", "[::1]8080", "127.0.0.1 :8080", " localhost:8080",
                     "local host:8080", "127.0.0.1:-8080", "127.0.0.1:+8080", "[]:8080", "[evil.example]:8080"] {
            XCTAssertFalse(allows(host), "'\(host)'")
            XCTAssertFalse(allows(host, server: port80), "'\(host)' on port 80")
        }
        XCTAssertNil(HostCheck.split("127.0.0.1:abc"))
        XCTAssertNil(HostCheck.split("[::1]x"))
    }

    func testRequestTextInMessagesIsShortened() {
        XCTAssertEqual(HTTPRequest.excerpt("short"), "short")
        XCTAssertEqual(HTTPRequest.excerpt(String(repeating: "x", count: 300)),
                       String(repeating: "x", count: 100) + "…")
    }
}

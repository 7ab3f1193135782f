/// Why an HTTP GET gave no body: the failures `moviesearch-fetch` tells apart, each with its exit status, and the
/// ones a caller of ``HTTPFetching`` meets.
///
///     do {
///         let body = try fetcher.fetch(url, limits: .flickr)
///     } catch {
///         print(error)    // "Flickr did not answer within 10 s"
///     }
///
/// `moviesearch-fetch` exits with ``exitStatus`` and prints ``detail`` on one line of standard error;
/// ``init(exitStatus:detail:)`` reads them back in the parent.
public enum FetchFailure: Error, Equatable, Sendable, CustomStringConvertible {
    /// No connection, or one that broke: the name did not resolve, the connection was refused or reset, TLS failed.
    case unreachable(String)
    /// No connection within the connect limit, or no whole answer within the total limit.
    case timedOut(String)
    /// The body grew past the byte limit.
    case tooLarge(Int)
    /// An answer with a status other than 2xx.
    case status(Int)
    /// The fetch could not be made at all: a URL libcurl refuses, no `moviesearch-fetch` to run, a spawn failure.
    case failed(String)

    /// One line: `"unreachable: Could not connect to server"`.
    public var description: String {
        switch self {
        case let .unreachable(detail): return "unreachable (\(detail))"
        case let .timedOut(detail): return "no answer in time (\(detail))"
        case let .tooLarge(limit): return "an answer larger than \(limit) bytes"
        case let .status(code): return "HTTP status \(code)"
        case let .failed(detail): return detail
        }
    }

    /// `moviesearch-fetch`'s exit status for this failure: 3 unreachable, 4 timed out, 5 too large, 6 an HTTP
    /// status, 7 failed (2 is a usage error, which the parent never causes).
    public var exitStatus: Int32 {
        switch self {
        case .unreachable: return 3
        case .timedOut: return 4
        case .tooLarge: return 5
        case .status: return 6
        case .failed: return 7
        }
    }

    /// The first run of decimal digits in `text`: the status of `"HTTP status 503"`.
    private static func firstNumber(in text: String) -> Int? {
        Int(String(text.drop { !$0.isASCII || !$0.isNumber }.prefix { $0.isASCII && $0.isNumber }))
    }

    /// What `moviesearch-fetch` prints on standard error for this failure (without its `moviesearch-fetch: `
    /// prefix): the detail ``init(exitStatus:detail:)`` reads back.
    public var detail: String {
        switch self {
        case let .unreachable(detail), let .timedOut(detail), let .failed(detail): return detail
        case .tooLarge, .status: return description
        }
    }

    /// The failure `moviesearch-fetch` reported by exiting with `exitStatus` after printing `detail`; a status it
    /// never uses is `.failed`.
    public init(exitStatus: Int32, detail: String) {
        switch exitStatus {
        case 3: self = .unreachable(detail)
        case 4: self = .timedOut(detail)
        case 5: self = .tooLarge(Self.firstNumber(in: detail) ?? 0)
        case 6: self = .status(Self.firstNumber(in: detail) ?? 0)
        default: self = .failed(detail.isEmpty ? "moviesearch-fetch exited with status \(exitStatus)" : detail)
        }
    }
}

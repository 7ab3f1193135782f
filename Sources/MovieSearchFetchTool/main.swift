import CCurl
import MovieSearchPhotos
import MovieSearchPlatform

// `moviesearch-fetch [--connect-timeout-ms N] [--timeout-ms N] [--max-bytes N] [--header 'Name: value']...
// [--any-status] (<url> | --request-from-stdin)`: one HTTP(S) GET through libcurl. The body goes to standard output,
// whole and only on a 2xx answer (with `--any-status`, on any status, after a first line holding the status: TMDb
// explains a 401 in its body); a failure is one line on standard error, `moviesearch-fetch: <detail>`, and an exit
// status per kind (`FetchFailure.exitStatus`: 3 unreachable, 4 timed out, 5 too large, 6 an HTTP status, 7 failed; 2 a
// usage error).
//
// With `--request-from-stdin` the URL is standard input's first line and request headers (`Name: value`) its next
// lines: `moviesearch` passes every request so, because a URL holds an API key (Flickr's, TMDb's v3 key) and a
// header a token, and a command line is readable by every user of the machine (`ps`, /proc/<pid>/cmdline).
//
// A program of its own, as git keeps libcurl in `git-remote-https`: `moviesearch` is a static executable that a
// one-shot `query` starts in a millisecond, and linking libcurl (with OpenSSL, nghttp2, …) into it would cost every
// process that; only a process that fetches spawns this one, and kills it at its deadline (`ProgramFetcher`).

/// The request's settings, from the arguments.
struct Request {
    var url = ""
    var limits = FetchLimits.flickr
    /// Extra request headers, `Name: value` each (`Authorization: Bearer …`).
    var headers: [String] = []
    /// Write the status and the body of any answer, not only of a 2xx.
    var anyStatus = false
}

func fail(_ failure: FetchFailure) -> Never {
    let line = Array("moviesearch-fetch: \(failure.detail)\n".utf8)
    _ = line.withUnsafeBytes { Syscalls.writeAll(2, $0) }
    Syscalls.exitProcess(failure.exitStatus)
}

func usage(_ problem: String) -> Never {
    let line = Array(("moviesearch-fetch: \(problem)\nusage: moviesearch-fetch [--connect-timeout-ms N] "
        + "[--timeout-ms N] [--max-bytes N] [--header 'Name: value']... [--any-status] (<url> | --request-from-stdin)\n").utf8)
    _ = line.withUnsafeBytes { Syscalls.writeAll(2, $0) }
    Syscalls.exitProcess(2)
}

/// The request on standard input (at most 64 KiB): the URL on the first line, then header lines, each checked as
/// `--header` checks its value.
func readRequestLines() -> (url: String, headers: [String]) {
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while bytes.count <= 64 * 1024 {
        guard case let .success(count) = buffer.withUnsafeMutableBytes({ Syscalls.readSome(0, into: $0) }),
              count > 0 else { break }
        bytes += buffer[..<count]
    }
    guard bytes.count <= 64 * 1024 else { usage("--request-from-stdin: more than 64 KiB") }
    let lines = String(decoding: bytes, as: UTF8.self).split(whereSeparator: { $0 == "\n" || $0 == "\r\n" })
    guard let url = lines.first.map(String.init), !url.isEmpty,
          !url.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\0" }) else {
        usage("--request-from-stdin needs the URL on the first line")
    }
    let headers = lines.dropFirst().map { line in
        let header = String(line)
        guard header.contains(":"), !header.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\0" }) else {
            usage("--request-from-stdin needs 'Name: value' lines after the URL")
        }
        return header
    }
    return (url, headers)
}

func parse(_ arguments: ArraySlice<String>) -> Request {
    var request = Request()
    var rest = arguments
    var url: String?
    while let argument = rest.popFirst() {
        switch argument {
        case "--header":
            // A header line: a name, a colon, a value; never a line break, which would add a header or a request.
            guard let header = rest.popFirst(), header.contains(":"),
                  !header.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\0" }) else {
                usage("--header needs 'Name: value' on one line")
            }
            request.headers.append(header)
        case "--request-from-stdin":
            // The URL (an API key in it) and header lines (a token) kept off the command line, which `ps` shows to
            // every user of the machine.
            guard url == nil else { usage("--request-from-stdin and a URL argument: give one") }
            let read = readRequestLines()
            url = read.url
            request.headers += read.headers
        case "--any-status":
            request.anyStatus = true
        case "--connect-timeout-ms", "--timeout-ms", "--max-bytes":
            guard let text = rest.popFirst(), let value = Int(text), value > 0, value <= 1 << 40 else {
                usage("\(argument) needs a positive whole number")
            }
            switch argument {
            case "--connect-timeout-ms": request.limits.connectMilliseconds = value
            case "--timeout-ms": request.limits.totalMilliseconds = value
            default: request.limits.maximumBytes = value
            }
        default:
            guard url == nil, !argument.hasPrefix("-") else { usage("unexpected argument '\(argument)'") }
            url = argument
        }
    }
    guard let url else { usage("no URL") }
    request.url = url
    return request
}

/// The body received so far, which the write callback fills and stops past the limit.
final class Body {
    var bytes: [UInt8] = []
    let limit: Int
    var isTooLarge = false

    init(limit: Int) { self.limit = limit }
}

let request = parse(CommandLine.arguments.dropFirst())
guard curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK, let handle = curl_easy_init() else {
    fail(.failed("libcurl could not start"))
}
let body = Body(limit: request.limits.maximumBytes)
let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)

var settings: [CURLcode] = []
settings.append(ccurl_setopt_string(handle, CURLOPT_URL, request.url))
// Only the web's protocols: a URL from a configuration can never make this read a file or speak to another service.
settings.append(ccurl_setopt_string(handle, CURLOPT_PROTOCOLS_STR, "https,http"))
settings.append(ccurl_setopt_string(handle, CURLOPT_REDIR_PROTOCOLS_STR, "https,http"))
// A redirect or two (a proxy, a mirror moving), never a chain.
settings.append(ccurl_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 1))
settings.append(ccurl_setopt_long(handle, CURLOPT_MAXREDIRS, 3))
settings.append(ccurl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, request.limits.connectMilliseconds))
settings.append(ccurl_setopt_long(handle, CURLOPT_TIMEOUT_MS, request.limits.totalMilliseconds))
settings.append(ccurl_setopt_off(handle, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(request.limits.maximumBytes)))
// No signals: a name lookup's timeout without SIGALRM (libcurl's advice for any program that sets a timeout).
settings.append(ccurl_setopt_long(handle, CURLOPT_NOSIGNAL, 1))
// gzip and deflate when the server offers them; the byte limit applies to the decoded body.
settings.append(ccurl_setopt_string(handle, CURLOPT_ACCEPT_ENCODING, ""))
settings.append(ccurl_setopt_string(handle, CURLOPT_USERAGENT, "moviesearch-fetch/1 (libcurl)"))
settings.append(ccurl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorBuffer))
var headerList: UnsafeMutablePointer<curl_slist>?
for header in request.headers { headerList = curl_slist_append(headerList, header) }
if let headerList {
    settings.append(ccurl_setopt_pointer(handle, CURLOPT_HTTPHEADER, UnsafeMutableRawPointer(headerList)))
}
settings.append(ccurl_setopt_pointer(handle, CURLOPT_WRITEDATA, Unmanaged.passUnretained(body).toOpaque()))
settings.append(ccurl_setopt_write_function(handle) { data, size, count, context in
    let body = Unmanaged<Body>.fromOpaque(context!).takeUnretainedValue()
    let length = size * count
    // A server that sends no length (or lies about it) is stopped here, past the limit, not read to the end.
    guard body.bytes.count + length <= body.limit else {
        body.isTooLarge = true
        return 0
    }
    if let data { body.bytes.append(contentsOf: UnsafeRawBufferPointer(start: data, count: length)) }
    return length
})
if let refused = settings.first(where: { $0 != CURLE_OK }) {
    fail(.failed("libcurl refused a setting: \(String(cString: curl_easy_strerror(refused)))"))
}

let result = curl_easy_perform(handle)
let detail = errorBuffer.pointee != 0 ? String(cString: errorBuffer) : String(cString: curl_easy_strerror(result))
switch result {
case CURLE_OK:
    break
case CURLE_OPERATION_TIMEDOUT:
    fail(.timedOut(detail))
case CURLE_FILESIZE_EXCEEDED:
    fail(.tooLarge(request.limits.maximumBytes))
case CURLE_WRITE_ERROR where body.isTooLarge:
    fail(.tooLarge(request.limits.maximumBytes))
case CURLE_URL_MALFORMAT, CURLE_UNSUPPORTED_PROTOCOL, CURLE_OUT_OF_MEMORY:
    fail(.failed(detail))
default:
    fail(.unreachable(detail))
}
let status = ccurl_response_code(handle)
guard (200..<300).contains(status) || request.anyStatus else { fail(.status(status)) }
let output = request.anyStatus ? Array("\(status)\n".utf8) + body.bytes : body.bytes
switch output.withUnsafeBytes({ Syscalls.writeAll(1, $0) }) {
case .success: Syscalls.exitProcess(0)
case let .failure(error): fail(.failed("cannot write the body: \(error)"))
}

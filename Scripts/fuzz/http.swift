// Fuzz target `http`: arbitrary bytes as a stream of HTTP/1.1 requests (Scripts/fuzz.sh http <seconds>).
//
// Compiled with Sources/MovieSearchHTTP only (no FuzzSupport.swift: that one needs the engine). The first two bytes
// choose, the rest is the stream:
// - byte 0: the pieces the stream is also fed in, besides whole and 1, 7 and 4099 bytes at a time: pieces of
//   1 to 16 bytes in a cycle derived from it, with `next()` drained after each piece or only at the end;
// - byte 1: the parser's limits: the defaults when even, else small ones (so that inputs of a few hundred bytes
//   reach every limit): a request line of 8 to 71 bytes, a header section of 16 to 271, 0 to 7 fields, a body of
//   0 to 127.
// Checked: no crash or hang; every way of cutting the stream gives the same requests and then the same error (or
// none); an error is thrown again by later calls, even after more bytes, and maps to a status `HTTPParseError`
// documents (400, 413, 414, 431, 501, 505) with the limit it names; every request is well-formed (a token method,
// an origin-form target of URI characters, one Host in HTTP/1.1 and at most one in 1.0, no Transfer-Encoding, a body
// of exactly `Content-Length` bytes, request line, field count and header bytes within the limits); and
// `HTTPPercentDecoding` on the target's path and query never crashes and fails only with its two errors.

/// Stops the process, so that libFuzzer keeps the input, when `condition` is false (checked in optimized builds).
private func check(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String,
                   file: StaticString = #file, line: UInt = #line) {
    if !condition() { fatalError("fuzz check failed: \(message())", file: file, line: line) }
}

/// What a stream gave: its requests in order, then the error that stopped it, if any.
private struct Outcome: Equatable {
    var requests: [HTTPRequest] = []
    var error: HTTPParseError?
}

/// The stream fed in pieces of these sizes (cycled; an empty list is the whole stream at once), `next()` drained
/// after every piece (or only after the last), checking that an error is thrown again.
private func parse(_ stream: ArraySlice<UInt8>, limits: HTTPRequestParser.Limits, pieces: [Int],
                   drainEachPiece: Bool = true) -> Outcome {
    var parser = HTTPRequestParser(limits: limits)
    var outcome = Outcome()
    func drain() -> Bool {
        do {
            while let request = try parser.next() { outcome.requests.append(request) }
            return true
        } catch {
            outcome.error = error
            return false
        }
    }
    var offset = stream.startIndex
    var piece = 0
    while offset < stream.endIndex {
        let size = pieces.isEmpty ? stream.count : pieces[piece % pieces.count]
        let end = min(offset + size, stream.endIndex)
        parser.append(stream[offset..<end])
        offset = end
        piece += 1
        if (drainEachPiece || offset == stream.endIndex) && !drain() { break }
    }
    if stream.isEmpty { _ = drain() }
    if let error = outcome.error {
        for more in [[], Array("GET / HTTP/1.1\r\nHost: a\r\n\r\n".utf8)] {
            parser.append(more)
            do {
                let request = try parser.next()
                check(false, "after \(error), next() returned \(String(describing: request))")
            } catch {
                check(error == outcome.error, "after \(outcome.error!), next() threw \(error)")
            }
        }
    }
    return outcome
}

private let tokenCharacters = Set("!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".utf8)
private let targetCharacters = Set(
    "-._~!$&'()*+,;=:@/?%0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".utf8)

/// ASCII case-insensitive equality of field names (tokens, so ASCII).
private func equalIgnoringCase(_ a: String, _ b: String) -> Bool {
    func lower(_ byte: UInt8) -> UInt8 { (0x41...0x5A).contains(byte) ? byte + 0x20 : byte }
    return a.utf8.elementsEqual(b.utf8) { lower($0) == lower($1) }
}

/// What every parsed request must hold, whatever the bytes.
private func checkRequest(_ request: HTTPRequest, limits: HTTPRequestParser.Limits) {
    let method = Array(request.method.utf8), target = Array(request.target.utf8)
    check(!method.isEmpty && method.allSatisfy(tokenCharacters.contains), "method \(request.method.debugDescription)")
    check(target.first == UInt8(ascii: "/") && target.allSatisfy(targetCharacters.contains),
          "target \(request.target.debugDescription)")
    // method SP target SP HTTP/x.y
    check(method.count + target.count + 10 <= limits.requestLineBytes,
          "request line of \(method.count + target.count + 10) bytes over \(limits.requestLineBytes)")
    check(request.headers.count <= limits.headerFields, "\(request.headers.count) fields over \(limits.headerFields)")
    // Each field line is at least name, colon, value and LF; a value's invalid UTF-8 was repaired to U+FFFD, one
    // scalar for one or more bytes, so its scalars are at most its bytes.
    let headerBytes = request.headers.reduce(0) { $0 + $1.name.utf8.count + $1.value.unicodeScalars.count + 2 }
    check(headerBytes <= limits.headerBytes,
          "header section of at least \(headerBytes) bytes over \(limits.headerBytes)")
    for field in request.headers {
        check(!field.name.isEmpty && field.name.utf8.allSatisfy(tokenCharacters.contains),
              "field name \(field.name.debugDescription)")
        let value = field.value.unicodeScalars
        check(value.first.map { $0 != " " && $0 != "\t" } ?? true, "value \(field.value.debugDescription) not trimmed")
        check(value.last.map { $0 != " " && $0 != "\t" } ?? true, "value \(field.value.debugDescription) not trimmed")
        check(value.allSatisfy { $0 == "\t" || ($0.value >= 0x20 && $0.value != 0x7F) },
              "control character in \(field.value.debugDescription)")
    }
    let hosts = request.headers.filter { equalIgnoringCase($0.name, "host") }.count
    check(request.version == .http1_1 ? hosts == 1 : hosts <= 1, "\(hosts) Host fields in \(request.version)")
    check(!request.headers.contains { equalIgnoringCase($0.name, "transfer-encoding") }, "Transfer-Encoding accepted")
    // Digits only (so `Int` reads them as the parser does); several fields agree in value, not necessarily spelling.
    let lengths = Set(request.headers.filter { equalIgnoringCase($0.name, "content-length") }.map { Int($0.value) })
    check(lengths.count <= 1 && !lengths.contains(nil), "Content-Length values \(lengths)")
    let length = lengths.first.map { $0! } ?? 0
    check(length == request.body.count, "a body of \(request.body.count) bytes for Content-Length \(lengths)")
    check(request.body.count <= limits.bodyBytes, "a body of \(request.body.count) bytes over \(limits.bodyBytes)")
    _ = request.keepsAlive
    _ = request.header("Host")

    // The parts of the target and their decodings: never a crash, only the two decoding errors.
    let path = request.path, query = request.query
    check(path.first == "/", "path \(path.debugDescription)")
    check(query.map { request.target == "\(path)?\($0)" } ?? (path == request.target),
          "path \(path.debugDescription) and query \(String(describing: query)) of \(request.target.debugDescription)")
    func decoded(_ decode: () throws(HTTPParseError) -> Void) {
        do {
            try decode()
        } catch {
            check(error == .invalidPercentEncoding || error == .invalidUTF8, "decoding threw \(error)")
            check(error.status == 400, "decoding error \(error) is \(error.status)")
        }
    }
    decoded { () throws(HTTPParseError) in
        let text = try HTTPPercentDecoding.decodePath(path)
        if !path.contains("%") { check(text == path, "\(path.debugDescription) decoded to \(text.debugDescription)") }
    }
    if let query {
        decoded { () throws(HTTPParseError) in
            let items = try HTTPPercentDecoding.queryItems(query)
            let ampersands = query.utf8.count(where: { $0 == UInt8(ascii: "&") })
            check(items.count <= ampersands + 1, "\(items.count) items in \(query)")
        }
        decoded { () throws(HTTPParseError) in _ = try HTTPPercentDecoding.decodeQueryComponent(query) }
    }
}

/// What every error must hold: a documented status, the limit it names, one line for a person.
private func checkError(_ error: HTTPParseError, limits: HTTPRequestParser.Limits) {
    check([400, 413, 414, 431, 501, 505].contains(error.status), "\(error) has status \(error.status)")
    switch error {
    case .requestLineTooLong(let limit): check(limit == limits.requestLineBytes, "\(error)")
    case .headerSectionTooLarge(let limit): check(limit == limits.headerBytes, "\(error)")
    case .tooManyHeaderFields(let limit): check(limit == limits.headerFields, "\(error)")
    case .bodyTooLarge(let limit): check(limit == limits.bodyBytes, "\(error)")
    case .unsupportedVersion(let version):
        let bytes = Array(version.utf8)
        check(bytes.count == 8 && version.hasPrefix("HTTP/") && version != "HTTP/1.0" && version != "HTTP/1.1",
              "unsupported version \(version.debugDescription)")
    case .invalidPercentEncoding, .invalidUTF8: check(false, "the parser threw the decoder's \(error)")
    default: break
    }
    let description = error.description
    check(!description.isEmpty && !description.contains("\n") && !description.contains("\r"),
          "description \(description.debugDescription)")
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTP(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    guard input.count >= 2 else { return 0 }
    let (plan, limitsByte) = (Int(input[0]), Int(input[1]))
    let stream = input[2...]
    var limits = HTTPRequestParser.Limits()
    if limitsByte & 1 == 1 {
        let small = limitsByte >> 1
        limits = HTTPRequestParser.Limits(
            requestLineBytes: 8 + small % 64, headerBytes: 16 + (small * 37) % 256, headerFields: small % 8,
            bodyBytes: (small * 11) % 128)
    }

    let whole = parse(stream, limits: limits, pieces: [])
    for request in whole.requests { checkRequest(request, limits: limits) }
    if let error = whole.error { checkError(error, limits: limits) }

    // A cycle of piece sizes 1...16 from the plan byte (its bits say which sizes and in what order).
    let cycle = [plan % 16 + 1, (plan >> 4) + 1, (plan * 7) % 16 + 1]
    let splits: [(pieces: [Int], drainEachPiece: Bool)] = [
        ([1], true), ([7], true), ([4099], true), (cycle, true), (cycle, plan & 1 == 0),
    ]
    for split in splits {
        let outcome = parse(stream, limits: limits, pieces: split.pieces, drainEachPiece: split.drainEachPiece)
        guard outcome != whole else { continue }
        let same = zip(outcome.requests, whole.requests).prefix { $0 == $1 }.count
        check(false, """
            pieces \(split.pieces) (drained \(split.drainEachPiece ? "after each" : "at the end")) give \
            \(outcome.requests.count) requests then \(String(describing: outcome.error)), whole \
            \(whole.requests.count) then \(String(describing: whole.error)); the first \(same) agree
            """)
    }
    return 0
}

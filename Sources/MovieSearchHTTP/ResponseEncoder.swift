/// Turns a responder's answer into the bytes sent: the status line, the framing (`Content-Length`, `Connection`,
/// `Date`), the fields every answer carries, an `ETag` and a 304 for a revalidatable answer, gzip when the client
/// takes it and it saves bytes. No socket, no state but the shared body cache: it runs on the workers, beside the
/// responder, so that hashing and gzipping a large answer never holds an event loop.
struct ResponseEncoder: Sendable {
    /// An answer ready to queue: the head, then the body (shared, not copied, when it came from the cache).
    struct Encoded: Sendable {
        /// The buffers to send, in order.
        var chunks: [AnswerBytes]
        /// The status sent (304 when the client's tag matched).
        var status: Int
        /// The body's bytes sent (for the access log).
        var bodyBytes: Int
    }

    /// `Configuration.commonHeaders` as the bytes of their lines.
    let commonHeaderBytes: [UInt8]
    /// Large bodies recently sent.
    let cache: EncodedBodyCache

    /// The answer to `request` as bytes, with an `ETag`, a 304, or gzip where they apply. `extra` fields come after
    /// the responder's; `date` is the `Date` field's value.
    func encode(
        _ response: HTTPResponse, for request: HTTPRequest?, keepAlive: Bool, omitsBody: Bool,
        extra: [(String, String)], date: String
    ) -> Encoded {
        guard response.isRevalidatable, response.status == 200, let request else {
            return framed(response, body: AnswerBytes(response.body), keepAlive: keepAlive, omitsBody: omitsBody,
                          extra: extra, date: date)
        }
        var fields = extra
        let tag = EntityTag.of(response.body)
        let gzips = response.isCompressible && response.body.count >= GzipEncoder.minimumBytes
            && AcceptEncoding.allowsGzip(request.header("accept-encoding"))
        if response.isCompressible { fields.append(("Vary", "Accept-Encoding")) }
        fields.append(("Cache-Control", "no-cache"))
        if let asked = request.header("if-none-match"), EntityTag.matches(asked, tag) {
            fields.append(("ETag", gzips ? tag.gzipVariant : tag.value))
            var answer = response
            answer.status = 304
            answer.body = []
            return framed(answer, body: nil, keepAlive: keepAlive, omitsBody: true, extra: fields, date: date)
        }
        let (body, isGzipped) = cache.encode(response.body, tag: tag, gzip: gzips)
        if isGzipped {
            fields.append(("Content-Encoding", "gzip"))
            fields.append(("ETag", tag.gzipVariant))
        } else {
            fields.append(("ETag", tag.value))
        }
        return framed(response, body: body, keepAlive: keepAlive, omitsBody: omitsBody, extra: fields, date: date)
    }

    /// The status line, the fields and (unless `omitsBody`) `body`, whose length `Content-Length` gives.
    private func framed(
        _ response: HTTPResponse, body: AnswerBytes?, keepAlive: Bool, omitsBody: Bool, extra: [(String, String)],
        date: String
    ) -> Encoded {
        // Appended piece by piece, without building the head as one string first: this runs for every answer.
        var head: [UInt8] = []
        head.reserveCapacity(256 + commonHeaderBytes.count)
        head.append(contentsOf: "HTTP/1.1 \(response.status) \(HTTPResponse.reason(response.status))\r\nDate: ".utf8)
        head.append(contentsOf: date.utf8)
        let length = body?.count ?? 0
        if response.status != 304 && response.status != 204 {
            if !response.contentType.isEmpty {
                head.append(contentsOf: "\r\nContent-Type: ".utf8)
                head.append(contentsOf: response.contentType.utf8)
            }
            head.append(contentsOf: "\r\nContent-Length: \(length)".utf8)
        }
        head.append(contentsOf: "\r\n".utf8)
        head.append(contentsOf: commonHeaderBytes)
        for field in response.headers { head.append(contentsOf: "\(field.name): \(field.value)\r\n".utf8) }
        for (name, value) in extra { head.append(contentsOf: "\(name): \(value)\r\n".utf8) }
        head.append(contentsOf: (keepAlive ? "Connection: keep-alive\r\n\r\n" : "Connection: close\r\n\r\n").utf8)
        var chunks = [AnswerBytes(head)]
        if let body, !omitsBody, body.count > 0 { chunks.append(body) }
        return Encoded(chunks: chunks, status: response.status, bodyBytes: omitsBody ? 0 : length)
    }
}

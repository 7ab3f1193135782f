private import CZlib

/// Gzip (RFC 1952) through the system's zlib, for answers sent with `Content-Encoding: gzip`.
enum GzipEncoder {
    /// The smallest body worth compressing: below it, gzip's 18 bytes of framing and the time spent buy little
    /// (nginx's `gzip_min_length` is 20 bytes by default, Akamai's and Cloudflare's guides say about 1 KB).
    static let minimumBytes = 1024

    /// `bytes` gzipped at level 5 (most of level 9's gain at a third of its time on JSON); nil if zlib fails.
    static func compress(_ bytes: [UInt8]) -> [UInt8]? {
        var stream = z_stream()
        guard czlib_deflateInit2(&stream, 5, 31) == Z_OK else { return nil }  // 31: a 32 KiB window, gzip framing
        defer { deflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(bytes.count))) + 32)
        let written: Int? = bytes.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out in
                stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
                stream.avail_in = uInt(input.count)
                stream.next_out = out.baseAddress
                stream.avail_out = uInt(out.count)
                return deflate(&stream, Z_FINISH) == Z_STREAM_END ? out.count - Int(stream.avail_out) : nil
            }
        }
        guard let written else { return nil }
        output.removeSubrange(written...)
        return output
    }
}

import CZlib

/// Gzip written (and read back) through the system's zlib, for the tests of gzip input and of gzip answers: one
/// member per call, as `gzip` writes it (a 10-byte header, deflate data, a CRC-32 and the length, little-endian).
///
///     let member = Gzip.compress(Array("hello".utf8))   // 1F 8B 08 …
///     let twoMembers = Gzip.compress(a) + Gzip.compress(b)   // decodes to a + b, as with `gzip -d`
package enum Gzip {
    /// The size of the trailer that ends a member: the CRC-32 of the decoded bytes, then their count modulo 2³².
    package static let trailerSize = 8

    /// `bytes` as one gzip member, compressed at `level` (0 stores, 9 compresses most).
    package static func compress(_ bytes: [UInt8], level: Int32 = 6) -> [UInt8] {
        let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        defer {
            deflateEnd(stream)
            stream.deinitialize(count: 1)
            stream.deallocate()
        }
        // 15 + 16: a 32 KiB window and a gzip header and trailer.
        precondition(czlib_deflateInit2(stream, level, 15 + 16) == Z_OK, "deflateInit2 failed")
        var output = [UInt8](repeating: 0, count: Int(deflateBound(stream, UInt(bytes.count))))
        var input = bytes
        let status = input.withUnsafeMutableBytes { source in
            output.withUnsafeMutableBytes { target in
                stream.pointee.next_in = source.baseAddress?.assumingMemoryBound(to: Bytef.self)
                stream.pointee.avail_in = UInt32(source.count)
                stream.pointee.next_out = target.baseAddress!.assumingMemoryBound(to: Bytef.self)
                stream.pointee.avail_out = UInt32(target.count)
                return deflate(stream, Z_FINISH)
            }
        }
        precondition(status == Z_STREAM_END, "deflate did not finish: \(status)")
        output.removeSubrange(Int(stream.pointee.total_out)...)
        return output
    }

    /// One gzip member decompressed; nil if it is not valid gzip (the tests of gzip answers read them back).
    package static func decompress(_ bytes: [UInt8]) -> [UInt8]? {
        let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        defer {
            inflateEnd(stream)
            stream.deinitialize(count: 1)
            stream.deallocate()
        }
        guard czlib_inflateInit2(stream, 15 + 16) == Z_OK else { return nil }
        var input = bytes
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        return input.withUnsafeMutableBytes { source -> [UInt8]? in
            stream.pointee.next_in = source.baseAddress?.assumingMemoryBound(to: Bytef.self)
            stream.pointee.avail_in = UInt32(source.count)
            for _ in 0..<1_000 {
                let (status, produced) = chunk.withUnsafeMutableBytes { target -> (Int32, Int) in
                    stream.pointee.next_out = target.baseAddress!.assumingMemoryBound(to: Bytef.self)
                    stream.pointee.avail_out = UInt32(target.count)
                    let status = inflate(stream, Z_NO_FLUSH)
                    return (status, target.count - Int(stream.pointee.avail_out))
                }
                output += chunk[0..<produced]
                if status == Z_STREAM_END { return stream.pointee.avail_in == 0 ? output : nil }
                if status != Z_OK { return nil }
            }
            return nil
        }
    }
}

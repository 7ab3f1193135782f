import MovieSearchJSON
import MovieSearchPlatform

/// Flickr answers kept on disk, one file per title, shared by `serve`, `photos` and `browse`:
/// `<folder>/flickr/<hash>.json`, where the folder is `$XDG_CACHE_HOME/moviesearch` (else `~/.cache/moviesearch`)
/// and the hash is the FNV-1a 64-bit hash of the title's UTF-8 bytes in hex. An answer depends on the title alone
/// (SPEC.md), so a rebuild that renumbers movies keeps every title's photos.
///
///     let cache = FlickrAnswerCache(folder: FilePath("/home/ana/.cache/moviesearch"))
///     try cache.write(title: "Heat", response: bytes, fetchedAt: now)
///     cache.read(title: "Heat")    // (bytes, fetchedAt)
///
/// A file is a header line, `{"title":"Heat","fetched":1712345678}`, then Flickr's answer as it came (only answers
/// that read as photo lists are written: nothing failed is cached). The title in the header is checked when read,
/// so two titles of one hash never share photos (the second is simply not cached). Each file is written to a
/// temporary file renamed into place (`AtomicFileWriter`): a reader sees the old answer or the new, never half.
/// Deleting the folder (or any file in it) is always safe.
package struct FlickrAnswerCache: Sendable {
    /// The cache's folder (`…/moviesearch`); answers are in its `service` folder.
    package let folder: FilePath
    /// The service's folder in it: `flickr` (Flickr's answers), `tmdb` (TMDb's posters, by folded title and year).
    package let service: String

    /// A cache in `folder`, for `service`'s answers (the same file format for each, in a folder of its own).
    package init(folder: FilePath, service: String = "flickr") {
        self.folder = folder
        self.service = service
    }

    /// One cached answer: Flickr's bytes, and when they were fetched (seconds since 1970).
    package struct Entry: Sendable, Equatable {
        package var response: [UInt8]
        package var fetchedAt: Double
    }

    /// The default folder: `$XDG_CACHE_HOME/moviesearch` when that is absolute, else `$HOME/.cache/moviesearch`;
    /// `nil` when neither is set (then nothing is cached on disk).
    package static func defaultFolder(cacheHome: String?, home: String?) -> FilePath? {
        if let cacheHome, cacheHome.hasPrefix("/") { return FilePath(cacheHome) + "/moviesearch" }
        if let home, !home.isEmpty { return FilePath(home) + "/.cache/moviesearch" }
        return nil
    }

    /// The file of `title`'s answer.
    package func path(title: String) -> FilePath {
        folder + "/\(service)/\(Self.hash(title)).json"
    }

    /// FNV-1a, 64 bits, of the title's UTF-8 bytes, as 16 lowercase hex digits: a file name that is the same on
    /// every machine and in every version.
    package static func hash(_ title: String) -> String {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in title.utf8 {
            value ^= UInt64(byte)
            value &*= 0x0000_0100_0000_01B3
        }
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// The largest cache file read: a header of at most a title's length plus a little, then an answer of at most
    /// the size any Flickr answer may have (`FlickrPhotos.maximumResponseBytes`, the one limit of an answer read,
    /// given, saved or fetched).
    static let maximumFileBytes = FlickrPhotos.maximumResponseBytes + 64 * 1024

    /// `title`'s cached answer, or `nil` when there is none, it is unreadable, or it belongs to another title.
    package func read(title: String) -> Entry? {
        guard let bytes = try? FileReader.readRegularFile(path: path(title: title),
                                                          maximumBytes: Self.maximumFileBytes),
            let newline = bytes.firstIndex(of: 0x0A),
            case .object(let header)? = try? JSONParser.parse(Array(bytes[..<newline])),
            header["title"]?.stringValue == title,
            case .number(let fetched)? = header["fetched"], let fetchedAt = fetched.double
        else { return nil }
        return Entry(response: Array(bytes[(newline + 1)...]), fetchedAt: fetchedAt)
    }

    /// Keeps `response` as `title`'s answer, fetched at `fetchedAt`, creating the folders (mode 0700: what a
    /// person looked for is theirs) when missing.
    package func write(title: String, response: [UInt8], fetchedAt: Double) throws(AtomicFileWriter.AtomicWriteError) {
        let answers = folder + "/\(service)"
        Self.makeFolders(answers)
        var header = JSONWriter()
        header.object { json in
            json.member("title", title)
            json.member("fetched", Int(fetchedAt))
        }
        try AtomicFileWriter.replaceFile(at: path(title: title), with: [header.bytes, [0x0A], response])
    }

    /// Creates `path` and the folders above it that are missing; an error shows in the write that follows.
    private static func makeFolders(_ path: FilePath) {
        var prefix: [UInt8] = []
        for (offset, byte) in path.bytes.enumerated() {
            prefix.append(byte)
            let atEnd = offset == path.bytes.count - 1
            guard (byte == UInt8(ascii: "/") && prefix.count > 1) || atEnd else { continue }
            _ = Syscalls.makeFolder(FilePath(bytes: prefix), mode: 0o700)
        }
    }
}

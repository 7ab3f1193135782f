import MovieSearchIndex
import MovieSearchJSON

/// The favorites as the file keeps them, in the order they were added: what `FavoritesFile` reads and writes.
///
///     var list = try FavoriteList(jsonBytes: bytes)
///     list.entries.append(Favorite(movie))
///     let saved = list.jsonBytes()
///
/// The file format, version 2, is one JSON object with exactly two members, one entry a line:
///
///     {"version":2,"favorites":[
///     {"id":745,"title":"The Dark Knight Rises","year":2012,"imdb_id":"tt1345836","tmdb_id":49026}
///     ]}
///
/// - `version`: the integer 2, or 1 for a file without external ids (what moviesearch wrote before ids were
///   kept, and still writes when no entry has one, so that an older moviesearch reads it). Another integer is a
///   later format, refused (`.unsupportedVersion`), never rewritten.
/// - `favorites`: an array of entries, oldest first; each `id` (an integer from 0 to 4294967295, the movie's id
///   when it was saved), `title` (a string, the title as the catalog gave it) and `year` (an integer), and in
///   version 2, when the movie had them, `imdb_id` (a string) and `tmdb_id` (an integer from 0 to 4294967295).
///
/// A file of no bytes, or of white space only, is an empty list (`touch favorites.json` makes one).
///
/// Reading is strict: a member this version does not know, a duplicate member or a value of the wrong type makes
/// the file `.corrupt`, so that a program that would drop what it does not understand never saves over it.
/// Valid JSON of another shape is `.foreign` (someone else's file at that path).
public struct FavoriteList: Equatable, Sendable {
    /// The favorites, in the order they were added (the file's order).
    public var entries: [Favorite]

    /// The version of the format this type writes when an entry has an external id; it reads this one and 1.
    public static let version = 2

    /// The version of a file without external ids, which this type writes when no entry has one.
    public static let versionWithoutExternalIDs = 1

    /// An empty list: what a missing file holds.
    public init() {
        entries = []
    }

    /// A list of these entries, in this order.
    public init(entries: [Favorite]) {
        self.entries = entries
    }

    /// The list in the bytes of a favorites file (see the type's discussion for the format).
    ///
    /// - Parameters:
    ///   - jsonBytes: The whole file.
    ///   - source: The file's path, for the error's message.
    /// - Throws: `FavoritesError.corrupt` (malformed JSON, with its line and column, or an entry that is not
    ///   `{"id","title","year"}`), `.foreign` (not an object with `version` and `favorites`) or
    ///   `.unsupportedVersion`.
    ///
    /// Cost: O(n) in the size of the file.
    public init(jsonBytes: [UInt8], source: String = "favorites") throws(FavoritesError) {
        if jsonBytes.allSatisfy({ [0x20, 0x09, 0x0A, 0x0D].contains($0) }) {
            entries = []
            return
        }
        // The usual file, read from its tokens; anything else through the tree, whose checks word the error.
        if let entries = jsonBytes.withUnsafeBufferPointer(Self.wellFormedEntries) {
            self.entries = entries
            return
        }
        let document: JSONValue
        do {
            document = try JSONParser.parse(jsonBytes)
        } catch {
            throw .corrupt(path: source, reason: "malformed JSON at line \(error.line), column \(error.column): "
                + error.reason)
        }
        guard case let .object(root) = document else {
            throw .foreign(path: source, reason: "it holds \(document.kindDescription), not an object")
        }
        guard let version = root["version"], let favorites = root["favorites"] else {
            throw .foreign(path: source, reason: "it has no \"version\" and \"favorites\" members")
        }
        guard case let .number(number) = version, let versionNumber = number.int else {
            throw .foreign(path: source, reason: "its \"version\" is \(version.kindDescription), not an integer")
        }
        guard versionNumber == Self.version || versionNumber == Self.versionWithoutExternalIDs else {
            throw .unsupportedVersion(path: source, version: number.text)
        }
        try Self.checkMembers(root, allowed: ["version", "favorites"], place: "the top-level object",
                              version: versionNumber, source: source)
        guard case let .array(items) = favorites else {
            throw .corrupt(path: source, reason: "\"favorites\" is \(favorites.kindDescription), not an array")
        }
        var entries: [Favorite] = []
        entries.reserveCapacity(items.count)
        for (position, item) in items.enumerated() {
            entries.append(try Self.entry(item, place: "favorite \(position + 1)", version: versionNumber,
                                          source: source))
        }
        self.entries = entries
    }

    /// The file's bytes: the format of the type's discussion, one entry a line, ending with a line feed.
    ///
    /// Cost: O(n) in the entries' size.
    public func jsonBytes() -> [UInt8] {
        let hasExternalIDs = entries.contains { $0.imdbID != nil || $0.tmdbID != nil }
        let version = hasExternalIDs ? Self.version : Self.versionWithoutExternalIDs
        var bytes = Array("{\"version\":\(version),\"favorites\":[".utf8)
        for (position, entry) in entries.enumerated() {
            bytes.append(contentsOf: position == 0 ? [0x0A] : [UInt8(ascii: ","), 0x0A])
            var json = JSONWriter(capacity: 64 + entry.title.utf8.count)
            json.object { json in
                json.member("id", entry.id)
                json.member("title", entry.title)
                json.member("year", entry.year)
                if let imdbID = entry.imdbID { json.member("imdb_id", imdbID) }
                if let tmdbID = entry.tmdbID { json.member("tmdb_id", tmdbID) }
            }
            bytes.append(contentsOf: json.bytes)
        }
        if !entries.isEmpty { bytes.append(0x0A) }
        bytes.append(contentsOf: "]}\n".utf8)
        return bytes
    }

    // MARK: Reading

    /// The members of an entry in each version.
    private static let entryMembers = ["id", "title", "year", "imdb_id", "tmdb_id"]
    private static let membersWithoutExternalIDs = ["id", "title", "year"]

    /// The ids an entry may hold, its `id` and its `tmdb_id` alike: the movie ids a cache stores, which the command
    /// line takes too.
    static let entryIDs = CacheFormat.movieIDRange

    /// One entry: an object with `id`, `title` and `year`, and in version 2 `imdb_id` and `tmdb_id` when the movie
    /// had them, of the right types.
    private static func entry(_ value: JSONValue, place: @autoclosure () -> String, version: Int, source: String)
        throws(FavoritesError) -> Favorite
    {
        guard case let .object(object) = value else {
            throw .corrupt(path: source, reason: "\(place()) is \(value.kindDescription), not an object")
        }
        let allowed = version == Self.versionWithoutExternalIDs ? Self.membersWithoutExternalIDs : Self.entryMembers
        try checkMembers(object, allowed: allowed, place: place(), version: version, source: source)
        guard case let .number(idNumber)? = object["id"], let id = idNumber.int, entryIDs.contains(id) else {
            throw .corrupt(path: source,
                           reason: "\(place()): \"id\" is missing or not an integer from 0 to \(entryIDs.upperBound)")
        }
        guard case let .string(title)? = object["title"] else {
            throw .corrupt(path: source, reason: "\(place()): \"title\" is missing or not a string")
        }
        guard case let .number(yearNumber)? = object["year"], let year = yearNumber.int else {
            throw .corrupt(path: source, reason: "\(place()): \"year\" is missing or not an integer")
        }
        var imdbID: String?
        if let value = object["imdb_id"] {
            guard case let .string(text) = value, !text.isEmpty else {
                throw .corrupt(path: source, reason: "\(place()): \"imdb_id\" is not a non-empty string")
            }
            imdbID = text
        }
        var tmdbID: Int?
        if let value = object["tmdb_id"] {
            guard case let .number(number) = value, let tmdb = number.int, entryIDs.contains(tmdb) else {
                throw .corrupt(path: source, reason: "\(place()): \"tmdb_id\" is not an integer from 0 to \(entryIDs.upperBound)")
            }
            tmdbID = tmdb
        }
        return Favorite(id: id, title: title, year: year, imdbID: imdbID, tmdbID: tmdbID)
    }

    /// Refuses a member not in `allowed`, and a member given twice (JSON allows both; a file this program wrote
    /// has neither, and saving over such a file would lose what a reader skipped).
    private static func checkMembers(_ object: JSONObject, allowed: [String], place: @autoclosure () -> String,
                                     version: Int, source: String) throws(FavoritesError)
    {
        // A mask of the allowed members seen so far: no set to build for each of thousands of entries.
        var seen: UInt64 = 0
        for key in object.keys {
            guard let position = allowed.firstIndex(of: key) else {
                throw .corrupt(path: source, reason: "\(place()) has a member \(JSONWriter.quoted(key)) that version "
                    + "\(version) does not have")
            }
            guard seen & (1 << position) == 0 else {
                throw .corrupt(path: source, reason: "\(place()) has the member \(JSONWriter.quoted(key)) twice")
            }
            seen |= 1 << position
        }
    }
}

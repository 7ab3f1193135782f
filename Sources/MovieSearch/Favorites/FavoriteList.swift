/// The favorites as the file keeps them, in the order they were added: what `FavoritesFile` reads and writes.
///
///     var list = try FavoriteList(jsonBytes: bytes)
///     list.entries.append(Favorite(movie))
///     let saved = list.jsonBytes()
///
/// The file format, version 1, is one JSON object with exactly two members, one entry a line:
///
///     {"version":1,"favorites":[
///     {"id":745,"title":"The Dark Knight Rises","year":2012}
///     ]}
///
/// - `version`: the integer 1. Another integer is a later format, refused (`.unsupportedVersion`), never
///   rewritten.
/// - `favorites`: an array of entries, oldest first; each exactly `id` (an integer from 0 to 4294967295, the
///   movie's id when it was saved), `title` (a string, the title as the catalog gave it) and `year` (an integer).
///
/// Reading is strict: a member this version does not know, a duplicate member or a value of the wrong type makes
/// the file `.corrupt`, so that a program that would drop what it does not understand never saves over it.
/// Valid JSON of another shape is `.foreign` (someone else's file at that path).
public struct FavoriteList: Equatable, Sendable {
    /// The favorites, in the order they were added (the file's order).
    public var entries: [Favorite]

    /// The version of the format this type reads and writes.
    public static let version = 1

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
        guard versionNumber == Self.version else {
            throw .unsupportedVersion(path: source, version: number.text)
        }
        try Self.checkMembers(root, allowed: ["version", "favorites"], place: "the top-level object", source: source)
        guard case let .array(items) = favorites else {
            throw .corrupt(path: source, reason: "\"favorites\" is \(favorites.kindDescription), not an array")
        }
        var entries: [Favorite] = []
        entries.reserveCapacity(items.count)
        for (position, item) in items.enumerated() {
            entries.append(try Self.entry(item, place: "favorite \(position + 1)", source: source))
        }
        self.entries = entries
    }

    /// The file's bytes: the format of the type's discussion, one entry a line, ending with a line feed.
    ///
    /// Cost: O(n) in the entries' size.
    public func jsonBytes() -> [UInt8] {
        var bytes = Array("{\"version\":\(Self.version),\"favorites\":[".utf8)
        for (position, entry) in entries.enumerated() {
            bytes.append(contentsOf: position == 0 ? [0x0A] : [UInt8(ascii: ","), 0x0A])
            var json = JSONWriter(capacity: 64 + entry.title.utf8.count)
            json.object { json in
                json.member("id", entry.id)
                json.member("title", entry.title)
                json.member("year", entry.year)
            }
            bytes.append(contentsOf: json.bytes)
        }
        if !entries.isEmpty { bytes.append(0x0A) }
        bytes.append(contentsOf: "]}\n".utf8)
        return bytes
    }

    // MARK: Reading

    /// The largest id an entry may hold: the command line's range of movie ids.
    static let maximumID = Int(UInt32.max)

    /// One entry: an object with exactly `id`, `title` and `year`, of the right types.
    private static func entry(_ value: JSONValue, place: String, source: String) throws(FavoritesError) -> Favorite {
        guard case let .object(object) = value else {
            throw .corrupt(path: source, reason: "\(place) is \(value.kindDescription), not an object")
        }
        try checkMembers(object, allowed: ["id", "title", "year"], place: place, source: source)
        guard case let .number(idNumber)? = object["id"], let id = idNumber.int, (0...maximumID).contains(id) else {
            throw .corrupt(path: source, reason: "\(place): \"id\" is missing or not an integer from 0 to \(maximumID)")
        }
        guard case let .string(title)? = object["title"] else {
            throw .corrupt(path: source, reason: "\(place): \"title\" is missing or not a string")
        }
        guard case let .number(yearNumber)? = object["year"], let year = yearNumber.int else {
            throw .corrupt(path: source, reason: "\(place): \"year\" is missing or not an integer")
        }
        return Favorite(id: id, title: title, year: year)
    }

    /// Refuses a member not in `allowed`, and a member given twice (JSON allows both; a file this program wrote
    /// has neither, and saving over such a file would lose what a reader skipped).
    private static func checkMembers(_ object: JSONObject, allowed: Set<String>, place: String, source: String)
        throws(FavoritesError)
    {
        var seen: Set<String> = []
        for key in object.keys {
            guard allowed.contains(key) else {
                throw .corrupt(path: source, reason: "\(place) has a member \(JSONWriter.quoted(key)) that version "
                    + "\(version) does not have")
            }
            guard seen.insert(key).inserted else {
                throw .corrupt(path: source, reason: "\(place) has the member \(JSONWriter.quoted(key)) twice")
            }
        }
    }
}

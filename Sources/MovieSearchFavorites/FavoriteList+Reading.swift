import MovieSearchJSON

extension FavoriteList {
    /// The entries of a well-formed favorites file, read straight from the reader's tokens, or `nil` for anything
    /// this version would not read as it is (a member it does not know or given twice, a value of another type, a
    /// version it does not read, malformed JSON): the caller then reads the file through the tree, whose checks
    /// word the error. A file of thousands of favorites costs no tree of objects this way (a third of the time
    /// `query` took to resolve 20,000 moved favorites went to the tree).
    ///
    /// Cost: O(n) in the file's size.
    static func wellFormedEntries(_ bytes: UnsafeBufferPointer<UInt8>) -> [Favorite]? {
        var reader = JSONReader(bytes: bytes)
        do {
            guard try reader.next() == .beginObject else { return nil }
            var version: Int?
            var entries: [Favorite]?
            var hasExternalIDs = false
            while true {
                switch try reader.next() {
                case .key(let key) where reader.string(key, equals: "version") && version == nil:
                    guard case let .number(number) = try reader.next(),
                          let value = JSONNumber.integerValue(literal: reader.literal(number)) else { return nil }
                    version = value
                case .key(let key) where reader.string(key, equals: "favorites") && entries == nil:
                    guard try reader.next() == .beginArray else { return nil }
                    var list: [Favorite] = []
                    while true {
                        let token = try reader.next()
                        if token == .endArray { break }
                        guard token == .beginObject, let favorite = try entry(&reader) else { return nil }
                        hasExternalIDs = hasExternalIDs || favorite.imdbID != nil || favorite.tmdbID != nil
                        list.append(favorite)
                    }
                    entries = list
                case .endObject:
                    guard try reader.next() == .end, let version, let entries,
                          version == Self.version || (version == Self.versionWithoutExternalIDs && !hasExternalIDs)
                    else { return nil }
                    return entries
                default:
                    return nil
                }
            }
        } catch {
            return nil
        }
    }

    /// One entry whose `{` has been read, up to its `}`: exactly the members of the type's discussion, each once,
    /// of the right type and range; `nil` otherwise.
    private static func entry(_ reader: inout JSONReader) throws(JSONSyntaxError) -> Favorite? {
        var id: Int?, title: String?, year: Int?, imdbID: String?, tmdbID: Int?
        func integer(_ token: JSONToken) -> Int? {
            guard case let .number(number) = token else { return nil }
            return JSONNumber.integerValue(literal: reader.literal(number))
        }
        while true {
            let token = try reader.next()
            if token == .endObject { break }
            guard case let .key(key) = token else { return nil }
            let value = try reader.next()
            if reader.string(key, equals: "id"), id == nil, let number = integer(value),
               entryIDs.contains(number) {
                id = number
            } else if reader.string(key, equals: "title"), title == nil, case let .string(text) = value {
                title = reader.string(text)
            } else if reader.string(key, equals: "year"), year == nil, let number = integer(value) {
                year = number
            } else if reader.string(key, equals: "imdb_id"), imdbID == nil, case let .string(text) = value,
                      text.end > text.start {
                imdbID = reader.string(text)
            } else if reader.string(key, equals: "tmdb_id"), tmdbID == nil, let number = integer(value),
                      entryIDs.contains(number) {
                tmdbID = number
            } else {
                return nil
            }
        }
        guard let id, let title, let year else { return nil }
        return Favorite(id: id, title: title, year: year, imdbID: imdbID, tmdbID: tmdbID)
    }
}

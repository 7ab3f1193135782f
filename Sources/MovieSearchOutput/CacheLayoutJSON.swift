import MovieSearchIndex
import MovieSearchJSON

/// A cache's layout as JSON (`info --json`): one object whose keys are stable, snake_case, the sections in
/// directory order, and the bytes of each group, which add up to `file_bytes`.
///
///     {"version":7,"file_bytes":243224,"block_size":4096,"movie_count":2272,"term_count":2706,"year_count":10,
///      "sections":[{"tag":"MIDS","kind":"packed","width":12,"entries":2272,"offset":928,"bytes":3416,
///                   "group":"records","holds":"movie id per slot"},…],
///      "groups":{"search":71353,"records":166984,"top_lists":3416,"structure":1471,"unknown":0},
///      "structure":{"header":64,"directory":864,"padding":63,"checksums":480},"checks":"ok"}
package enum CacheLayoutJSON {
    /// The object's members.
    package static let members = [
        JSONMember("version", "the cache format version"),
        JSONMember("file_bytes"),
        JSONMember("block_size", "the checksum block size"),
        JSONMember("movie_count"),
        JSONMember("term_count"),
        JSONMember("year_count"),
        JSONMember("sections", "in directory order, each with " + sectionMembers.map(\.name).joined(separator: ", ")),
        JSONMember("groups", "bytes per group: " + groupKeys.joined(separator: ", ") + ", which add up to file_bytes"),
        JSONMember("structure", "bytes of header, directory, padding and checksums"),
        JSONMember("checks", "ok when every block's checksum matches, else what does not (then the status is 1)"),
    ]

    /// The members of each section.
    package static let sectionMembers = [
        JSONMember("tag"), JSONMember("kind", "packed or bytes"), JSONMember("width", "0 for bytes"),
        JSONMember("entries"), JSONMember("offset"), JSONMember("bytes"), JSONMember("group"), JSONMember("holds"),
    ]

    /// The key of each group in `groups`, in `CacheLayout.Group.allCases` order.
    static let groupKeys = CacheLayout.Group.allCases.map(key)

    /// The key that names `group` in `groups` and in each section's `group`.
    static func key(_ group: CacheLayout.Group) -> String {
        switch group {
        case .search: "search"
        case .records: "records"
        case .topLists: "top_lists"
        case .filters: "filters"
        case .structure: "structure"
        case .unknown: "unknown"
        }
    }

    /// The object for `layout`; `problem`: why the cache fails its checks (`MovieIndex.verify()`), nil when it
    /// passes them.
    package static func object(_ layout: CacheLayout, problem: String? = nil) -> JSONWriter {
        var json = JSONWriter(capacity: 256 + 160 * layout.sections.count)
        json.object { json in
            json.member("version", layout.formatVersion)
            json.member("file_bytes", layout.fileLength)
            json.member("block_size", layout.blockSize)
            json.member("movie_count", layout.movieCount)
            json.member("term_count", layout.termCount)
            json.member("year_count", layout.yearCount)
            json.key("sections")
            json.array { json in
                for section in layout.sections {
                    json.object { json in
                        json.member("tag", section.tag)
                        json.member("kind", section.kind.rawValue)
                        json.member("width", section.width)
                        json.member("entries", section.count)
                        json.member("offset", section.offset)
                        json.member("bytes", section.length)
                        json.member("group", key(section.group))
                        json.member("holds", section.summary)
                    }
                }
            }
            json.key("groups")
            json.object { json in
                for group in CacheLayout.Group.allCases { json.member(key(group), layout.bytes(in: group)) }
            }
            json.key("structure")
            json.object { json in
                json.member("header", layout.headerLength)
                json.member("directory", layout.directoryLength)
                json.member("padding", layout.paddingLength)
                json.member("checksums", layout.checksumLength)
            }
            json.member("checks", problem ?? "ok")
        }
        return json
    }
}

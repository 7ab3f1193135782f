import MovieSearchCatalog
import MovieSearchJSON
import MovieSearchQuery

/// A top list as JSON (`top --json`, and the server's `/api/top`): `{"by":"rating"|"critic","movies":[…]}`, the
/// movies best first, each the object `show --json` prints (`MovieJSON`, with `favorite`).
package enum TopListJSON {
    /// The list's members.
    package static let members = [
        JSONMember("by", "rating or critic, the rating the list is ranked by"),
        JSONMember("movies", "best first, each as 'show --json' prints it"),
    ]

    /// The object for `movies`, ranked by `order`, their ratings on `scales`; poster URLs name `posterSize`, and
    /// `favorite` says whether `favorites` holds each.
    package static func object(_ movies: [Movie], by order: TopListOrder, scales: RatingScales,
                               posterSize: PosterSize = .defaultSize, favorites: Set<Int>) -> JSONWriter {
        var json = JSONWriter(capacity: 256)
        json.object { json in
            json.member("by", order.rawValue)
            json.key("movies")
            json.array { json in
                for movie in movies {
                    json.object { json in
                        MovieJSON.writeMembers(of: movie, scales: scales, posterSize: posterSize,
                                               favorite: favorites.contains(movie.id), to: &json)
                    }
                }
            }
        }
        return json
    }
}

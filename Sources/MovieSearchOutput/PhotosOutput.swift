import MovieSearchCatalog
import MovieSearchJSON
import MovieSearchPhotos

/// A movie's Flickr photos (`photos`): the request that asks Flickr for them, and the photos' URLs when a saved
/// answer to it was given.
package enum PhotosOutput {
    /// The members of `json(_:request:photos:)`'s object.
    package static let members = [
        JSONMember("id"), JSONMember("title"), JSONMember("request", "the Flickr photos.search URL"),
        JSONMember("photos", "the URLs, null when there is no answer (no key, --offline, nothing saved or cached)"),
        JSONMember("pictures", "per photo its https image (size w) and its Flickr page; null as photos"),
    ]

    /// `{"id":…,"title":…,"request":…,"photos":[…],"pictures":[{"image":…,"page":…}]}`; `photos` and `pictures`
    /// are `null` when there is no answer. `pictures` is what a page shows: each photo at Flickr's https address
    /// in size `w` (400 px, for a half column), and the photo's page on Flickr to link to.
    package static func json(_ movie: Movie, request: String, photos: PhotoList?) -> JSONWriter {
        var json = JSONWriter()
        json.object { json in
            json.member("id", movie.id)
            json.member("title", movie.title)
            json.member("request", request)
            json.key("photos")
            if let photos { json.value(photos.urls) } else { json.null() }
            json.key("pictures")
            if let photos {
                json.array { json in
                    for photo in photos.photos {
                        json.object { json in
                            json.member("image", photo.imageURL(size: "w"))
                            json.member("page", photo.pageURL)
                        }
                    }
                }
            } else {
                json.null()
            }
        }
        return json
    }

    /// The title and year, the request, then the photos' URLs: in two columns on a terminal `width` wide, one per
    /// line without one. Every string here comes from data (the URLs are built from it): escaped
    /// (`TerminalSafeText`).
    package static func write(_ movie: Movie, request: String, photos: PhotoList?, width: Int?, to out: TextOutput) {
        out.line("\(TerminalSafeText.escaped(movie.title)) (\(movie.year))")
        out.line("request: \(TerminalSafeText.escaped(request))")
        guard let photos else { return }
        if photos.urls.isEmpty {
            out.line("no pictures")
            return
        }
        out.line(TextLayout.count(photos.urls.count, "photo:", "photos:"))
        let urls = photos.urls.map(TerminalSafeText.escaped)
        let lines = width.map { TextLayout.twoColumns(urls, width: $0) } ?? urls
        for line in lines { out.line(line) }
    }
}

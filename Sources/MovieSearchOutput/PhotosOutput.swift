import MovieSearchCatalog
import MovieSearchJSON
import MovieSearchPhotos

/// A movie's Flickr photos (`photos`): the request that asks Flickr for them, and the photos' URLs when a saved
/// answer to it was given.
package enum PhotosOutput {
    /// The members of `json(_:request:photos:)`'s object.
    package static let members = [
        JSONMember("id"), JSONMember("title"), JSONMember("request", "the Flickr photos.search URL"),
        JSONMember("photos", "the URLs, null without --response"),
    ]

    /// `{"id":…,"title":…,"request":…,"photos":[…]}`; `photos` is `null` when no answer was given.
    package static func json(_ movie: Movie, request: String, photos: PhotoList?) -> JSONWriter {
        var json = JSONWriter()
        json.object { json in
            json.member("id", movie.id)
            json.member("title", movie.title)
            json.member("request", request)
            json.key("photos")
            if let photos { json.value(photos.urls) } else { json.null() }
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

import MovieSearchJSON

/// Flickr photo URLs, built offline (SPEC.md, "Flickr photos"): the photos.search request for a title, and
/// the photo URLs of a saved response. Nothing here opens a network connection.
///
///     let request = FlickrPhotos.searchURL(title: "Amélie", apiKey: key)
///     // https://api.flickr.com/services/rest/?method=flickr.photos.search&api_key=…&format=json
///     //     &nojsoncallback=1&text=Am%C3%A9lie&page=1&per_page=10
///     let list = try FlickrPhotos.photos(fromResponse: savedBytes, source: "amelie.json")
///     // list.urls: ["http://farm66.static.flickr.com/65535/53247432398_3c5b1e2f4a.jpg", …]
///
/// Costs: `searchURL` is O(n) in the UTF-8 length of the title and key; `photos(fromResponse:source:)` is O(n) in
/// the size of the response.
public enum FlickrPhotos {
    /// Shown in place of an API key when none was given, so that a built URL is visibly incomplete.
    ///
    ///     let key = flag ?? environment["FLICKR_API_KEY"] ?? FlickrPhotos.placeholderAPIKey
    public static let placeholderAPIKey = "YOUR_FLICKR_API_KEY"

    /// The photos.search request URL for `title`:
    /// `https://api.flickr.com/services/rest/?method=flickr.photos.search&api_key={KEY}&format=json&nojsoncallback=1&text={TITLE}&page=1&per_page=10`.
    ///
    ///     FlickrPhotos.searchURL(title: "Tom & Jerry", apiKey: "abc123")
    ///     // …&api_key=abc123&format=json&nojsoncallback=1&text=Tom%20%26%20Jerry&page=1&per_page=10
    ///
    /// The title and the key are percent-encoded as query values: every UTF-8 byte except the RFC 3986 unreserved
    /// characters (`A`–`Z a`–`z 0`–`9 - . _ ~`) becomes `%XX`, a space `%20`. So `&`, `=`, `#`, `+` and `%` in a
    /// title stay part of it, and any server decodes the `text` value back to the title exactly. The title is
    /// used as written, not trimmed or folded: it is what Flickr searches for.
    ///
    /// Cost: O(n) in the UTF-8 length of `title` and `apiKey`.
    public static func searchURL(title: String, apiKey: String) -> String {
        searchURL(title: title, apiKey: apiKey, endpoint: defaultEndpoint)
    }

    /// Flickr's REST address, where `searchURL` sends a request unless told otherwise (`--flickr-endpoint`).
    public static let defaultEndpoint = "https://api.flickr.com/services/rest/"

    /// The largest Flickr answer read, fetched or saved: ten photos' answer is about 3 KB, a page of 500 about
    /// 100 KB.
    public static let maximumResponseBytes = 1 << 20

    /// `searchURL(title:apiKey:)` at another `endpoint` (a mirror, a proxy, a test's stand-in): the same query,
    /// after a `?` (or an `&` when the endpoint already holds a query).
    ///
    ///     FlickrPhotos.searchURL(title: "Heat", apiKey: "k", endpoint: "http://127.0.0.1:8080/rest")
    ///     // http://127.0.0.1:8080/rest?method=flickr.photos.search&api_key=k&…&text=Heat&page=1&per_page=10
    public static func searchURL(title: String, apiKey: String, endpoint: String) -> String {
        endpoint + (endpoint.contains("?") ? "&" : "?") + "method=flickr.photos.search"
            + "&api_key=\(PercentEncoding.queryValue(apiKey))&format=json&nojsoncallback=1"
            + "&text=\(PercentEncoding.queryValue(title))&page=1&per_page=10"
    }

    /// The photo URLs of a saved photos.search response, in the response's order.
    ///
    ///     let list = try FlickrPhotos.photos(fromResponse: bytes, source: "heat.json")
    ///     if list.urls.isEmpty { print("no pictures") }
    ///     if list.skipped > 0 { print("warning: \(list.skipped) photos without a usable URL") }
    ///
    /// A response is `{"photos":{"photo":[…]},"stat":"ok"}`. Each photo becomes
    /// `http://farm{farm}.static.flickr.com/{server}/{id}_{secret}.jpg`, where:
    /// - `id` and `server` are non-empty strings of ASCII digits, and `secret` a non-empty string of lowercase
    ///   hexadecimal digits (what Flickr sends, as SPEC.md "Flickr photos" requires; any other character could
    ///   change the URL's meaning);
    /// - `farm` is a non-negative integer, given as a number or as a string of decimal digits. A number with a
    ///   fraction or exponent is accepted when its nearest `Double` is a whole number (`1.0`, `1e0`), since some
    ///   JSON encoders write every number that way; `1.5`, `-1` or `"1.0"` are not. (Judged through the `Double`,
    ///   so a fraction too small for it to hold, `1.0000000000000001`, counts as whole.)
    ///
    /// A photo that is not an object, or whose field is missing or fails these rules, is left out and counted in
    /// `skipped`. An empty `photo` array is a normal answer: not every title has pictures. `stat` may be absent;
    /// other members are ignored.
    ///
    /// - Parameters:
    ///   - bytes: The response, UTF-8 JSON.
    ///   - source: Names the response in errors: a file path, or a label such as `<stdin>`.
    /// - Throws: `FlickrError.apiFailure` for `"stat":"fail"`, with Flickr's code and message;
    ///   `FlickrError.malformedJSON` with the line and column of the fault; `FlickrError.unexpectedShape` for
    ///   valid JSON of another shape.
    ///
    /// Cost: O(n) in the size of the response.
    public static func photos(fromResponse bytes: [UInt8], source: String) throws -> PhotoList {
        try decodePhotos(bytes, source: source)
    }

    /// `photos(fromResponse:source:)` with its error type stated, for callers in the library.
    static func decodePhotos(_ bytes: [UInt8], source: String) throws(FlickrError) -> PhotoList {
        let document: JSONValue
        do {
            document = try JSONParser.parse(bytes)
        } catch {
            throw .malformedJSON(
                source: source, line: error.line, column: error.column, offset: error.offset, reason: error.reason)
        }
        guard case .object(let response) = document else {
            throw .unexpectedShape(source: source, reason: "the top level is \(document.kindDescription), not an object")
        }
        try checkStatus(of: response, source: source)
        guard let photos = response["photos"] else {
            throw .unexpectedShape(source: source, reason: #"no "photos" member"#)
        }
        guard case .object = photos else {
            throw .unexpectedShape(source: source, reason: #""photos" is \#(photos.kindDescription), not an object"#)
        }
        guard let photo = photos["photo"] else {
            throw .unexpectedShape(source: source, reason: #"no "photo" member in "photos""#)
        }
        guard case .array(let elements) = photo else {
            throw .unexpectedShape(source: source, reason: #""photos.photo" is \#(photo.kindDescription), not an array"#)
        }
        var found: [FlickrPhoto] = []
        found.reserveCapacity(elements.count)
        for element in elements {
            if let photo = decodedPhoto(of: element) { found.append(photo) }
        }
        return PhotoList(photos: found, skipped: elements.count - found.count)
    }

    /// Throws for `"stat":"fail"` (Flickr's refusal) and for a `stat` that is neither `"ok"` nor absent.
    private static func checkStatus(of response: JSONObject, source: String) throws(FlickrError) {
        switch response["stat"] {
        case nil, .string("ok"):
            return
        case .string("fail"):
            let message = response["message"]?.stringValue ?? ""
            guard let code = response["code"].flatMap(integer) else {
                throw .unexpectedShape(
                    source: source,
                    reason: #""stat" is "fail" without an integer "code" (message: \#(JSONWriter.quoted(message)))"#)
            }
            throw .apiFailure(source: source, code: code, message: message)
        case .string(let other):
            throw .unexpectedShape(source: source, reason: #""stat" is \#(JSONWriter.quoted(other)), not "ok" or "fail""#)
        case let other?:
            throw .unexpectedShape(source: source, reason: #""stat" is \#(other.kindDescription), not a string"#)
        }
    }

    /// One photo of the `photo` array, or `nil` when its URL cannot be built.
    private static func decodedPhoto(of photo: JSONValue) -> FlickrPhoto? {
        guard case .object(let fields) = photo,
            let id = fields["id"].flatMap(digits),
            let secret = fields["secret"].flatMap(lowercaseHex),
            let server = fields["server"].flatMap(digits),
            let farm = fields["farm"].flatMap(integer),
            farm >= 0
        else { return nil }
        return FlickrPhoto(id: id, owner: fields["owner"].flatMap(owner), secret: secret, server: server, farm: farm)
    }

    /// An owner's NSID (`12345678@N00`): ASCII letters, digits, `@`, `_` and `-`, safe in a URL path as it is.
    private static func owner(_ value: JSONValue) -> String? {
        guard case .string(let string) = value, !string.isEmpty, string.utf8.count <= 64,
            string.utf8.allSatisfy({ isASCIIDigit($0) || isASCIILetter($0) || $0 == UInt8(ascii: "@")
                || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") })
        else { return nil }
        return string
    }

    /// A non-empty string of ASCII digits (a photo's id, its server), safe to put in a URL path as it is.
    private static func digits(_ value: JSONValue) -> String? {
        guard case .string(let string) = value, !string.isEmpty, string.utf8.allSatisfy(isASCIIDigit) else {
            return nil
        }
        return string
    }

    /// A non-empty string of lowercase hexadecimal digits (a photo's secret), safe in a URL path as it is.
    private static func lowercaseHex(_ value: JSONValue) -> String? {
        guard case .string(let string) = value, !string.isEmpty,
            string.utf8.allSatisfy({ isASCIIDigit($0) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0) })
        else { return nil }
        return string
    }

    /// An integer given as a whole number (`66`, `66.0`, `6.6e1`: an integer literal, or a number whose nearest
    /// `Double` is a whole number that fits an `Int`) or as a string of decimal digits (`"66"`).
    private static func integer(_ value: JSONValue) -> Int? {
        switch value {
        case .number(let number):
            if let int = number.int { return int }
            // Whole doubles beyond ±2^63 do not fit an Int; `Int(exactly:)` rejects them and fractions alike.
            return number.double.flatMap { Int(exactly: $0) }
        case .string(let string):
            guard !string.isEmpty, string.utf8.allSatisfy(isASCIIDigit) else { return nil }
            return Int(string)
        default:
            return nil
        }
    }

    private static func isASCIIDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    private static func isASCIILetter(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
    }
}

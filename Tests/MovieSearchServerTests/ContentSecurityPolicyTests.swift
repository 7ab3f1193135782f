@testable import MovieSearchOutput
@testable import MovieSearchServer
import XCTest

/// `ContentSecurityPolicy`: the page may load images from itself, from every host a poster URL may name and from
/// Flickr's, each over https, and nothing else from elsewhere.
final class ContentSecurityPolicyTests: XCTestCase {
    func testImagesComeFromThePosterAndPhotoHostsOverHTTPSOnly() {
        let value = ContentSecurityPolicy.value
        XCTAssertTrue(value.hasPrefix("default-src 'self'; img-src 'self' "), value)
        let sources = value.split(separator: ";")[1].split(separator: " ").dropFirst(2).map(String.init)
        XCTAssertEqual(sources, (PosterSize.allowedHosts + ContentSecurityPolicy.flickrImageHosts).map { "https://" + $0 }
            + ["data:"])
        XCTAssertTrue(value.contains("https://image.tmdb.org"), value)
        XCTAssertFalse(value.contains("http://"), value)
    }
}

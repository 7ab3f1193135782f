/// The web page `moviesearch serve` answers at `/`, embedded so that the binary serves it alone: each file's bytes
/// and content type, by name. URLs never name files: the routes look names up here only.
///
/// The bytes are the files of Web/ as they were at build time: Package.swift declares each one
/// `.embedInCode`, and SwiftPM generates `PackageResources` (a `[UInt8]` per file, in a source file it writes under
/// .build, importing nothing) from them on every build, so that nothing generated is committed and nothing can be
/// stale. A file added to Web/ is served once it is declared there and named here.
package enum WebAssets {
    /// One embedded file.
    package struct File: Sendable {
        /// The `Content-Type` it is served with.
        package let contentType: String
        /// Its bytes, as in Web/.
        package let bytes: [UInt8]
    }

    /// The files by name (`index.html`, `app.css`, `app.js`).
    package static let files: [String: File] = [
        "index.html": File(contentType: "text/html; charset=utf-8", bytes: PackageResources.index_html),
        "app.css": File(contentType: "text/css; charset=utf-8", bytes: PackageResources.app_css),
        "app.js": File(contentType: "text/javascript; charset=utf-8", bytes: PackageResources.app_js),
    ]
}

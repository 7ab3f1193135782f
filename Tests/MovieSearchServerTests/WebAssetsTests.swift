import Foundation
import MovieSearchServer
import XCTest

/// `WebAssets` against the files of `Sources/MovieSearchServer/Web`: every file there served, under its own name (not
/// another file's bytes) and with its type (a file added to Web/ but not declared in Package.swift and `WebAssets`
/// fails here), the page's budget, and what the script may not do.
final class WebAssetsTests: XCTestCase {
    /// The files and the types they are served with.
    static let files = [
        "index.html": "text/html; charset=utf-8",
        "app.css": "text/css; charset=utf-8",
        "app.js": "text/javascript; charset=utf-8",
    ]

    /// `Sources/MovieSearchServer/Web`, found from this file's path.
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/MovieSearchServer/Web")

    func testEveryFileInWebIsServedWithItsType() throws {
        XCTAssertEqual(Set(WebAssets.files.keys), Set(Self.files.keys))
        let onDisk = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path).filter { !$0.hasPrefix(".") }
        XCTAssertEqual(Set(onDisk), Set(Self.files.keys),
                       "a file in Web/ that is not embedded (declare it in Package.swift and WebAssets) or the reverse")
        for (name, type) in Self.files {
            let bytes = try [UInt8](Data(contentsOf: Self.folder.appendingPathComponent(name)))
            let embedded = try XCTUnwrap(WebAssets.files[name], name)
            XCTAssertEqual(embedded.bytes.count, bytes.count, name)
            XCTAssertTrue(embedded.bytes == bytes, "\(name) is served with other bytes than Web/\(name)")
            XCTAssertEqual(embedded.contentType, type, name)
        }
    }

    func testThePageFitsIn60KB() {
        let total = WebAssets.files.values.reduce(0) { $0 + $1.bytes.count }
        XCTAssertLessThanOrEqual(total, 60 * 1024, "the page and its assets total \(total) bytes")
    }

    /// Data reaches the page as text only: no `innerHTML`, `outerHTML`, `insertAdjacentHTML`, `document.write` or
    /// `eval` in the script, no inline script or style the CSP would refuse.
    func testTheScriptNeverWritesHTML() throws {
        let script = String(decoding: try XCTUnwrap(WebAssets.files["app.js"]).bytes, as: UTF8.self)
        for word in ["innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "new Function"] {
            XCTAssertFalse(script.contains(word), word)
        }
        let page = String(decoding: try XCTUnwrap(WebAssets.files["index.html"]).bytes, as: UTF8.self)
        XCTAssertFalse(page.contains("<style"), "inline style")
        XCTAssertFalse(page.contains(" style="), "inline style attribute")
        XCTAssertFalse(page.contains("<script>"), "inline script")
        XCTAssertNil(page.range(of: #"\son[a-z]+\s*="#, options: [.regularExpression, .caseInsensitive]),
                     "inline event handler")
    }
}

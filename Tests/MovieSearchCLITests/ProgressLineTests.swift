import MovieSearch
@testable import MovieSearchCLI
@testable import MovieSearchOutput
import XCTest

final class ProgressLineTests: XCTestCase {
    func testTextSaysPhaseRecordsRateAndTime() {
        XCTAssertEqual(ProgressLine.text(IndexingProgress(phase: .reading, records: 2_000_000), elapsed: .seconds(2)),
                       "reading · 2,000,000 records · 1,000,000/s · 2.00 s")
        XCTAssertEqual(ProgressLine.text(IndexingProgress(phase: .reading, records: 5), elapsed: .seconds(1),
                                         fraction: 0.456),
                       "reading · 45% · 5 records · 5/s · 1.00 s")
        XCTAssertEqual(ProgressLine.text(IndexingProgress(phase: .prefixSets, records: 10_000_000),
                                         elapsed: .milliseconds(31_250)),
                       "indexing: prefix sets · 10,000,000 movies · 31.25 s")
    }

    func testNothingIsDrawnBeforeTheDelayAndNothingErasedThen() {
        let output = TextOutput(.memory)
        let line = ProgressLine(output: output, width: 80)
        line.update(IndexingProgress(phase: .reading, records: 16_384))
        line.finish()
        XCTAssertEqual(output.capturedText, "", "a run shorter than \(ProgressLine.delay) shows nothing")
    }
}

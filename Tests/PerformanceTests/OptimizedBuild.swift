import TestSupport
import XCTest

/// Skips the calling test unless this is an optimized build (`TestScale.isOptimizedBuild`). `measure` figures mean
/// something only there (a developer runs them so, before and after a change; `.ci/run` prints the optimized figures
/// of the installed binary's `bench` instead, which needs no optimized build of the tests); in the debug `swift test`
/// these workloads would only add time, as DatasetTests and LRUCacheTests already check the same answers and the
/// same cache there.
///
/// Not a `Requirement`: nothing is missing from the machine, and a debug run skips these tests under CI too.
func requireOptimizedBuild(file: StaticString = #filePath, line: UInt = #line) throws {
    guard TestScale.isOptimizedBuild else {
        throw XCTSkip("performance tests run in an optimized build only: "
                          + "swift test -c release -Xswiftc -enable-testing --filter PerformanceTests",
                      file: file, line: line)
    }
}

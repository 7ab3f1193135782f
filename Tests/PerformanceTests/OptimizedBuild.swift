import XCTest

/// Throws `XCTSkip` in a debug build. `measure` figures mean something only in an optimized build, which `.ci/run`
/// runs (`swift test -c release … --filter PerformanceTests`); in the debug `swift test` these workloads would only
/// add time, as DatasetTests and LRUCacheTests already check the same answers and the same cache there.
func requireOptimizedBuild() throws {
    #if DEBUG
    throw XCTSkip("performance tests run in an optimized build only: swift test -c release -Xswiftc -enable-testing --filter PerformanceTests")
    #endif
}

import Synchronization

/// A clock that moves only when a test moves it, and counts how often it is read, so expiry tests never sleep.
final class ManualClock: Sendable {
    private let state: Mutex<(now: Double, reads: Int)>

    init(_ now: Double = 0) {
        state = Mutex((now, 0))
    }

    /// The current time; each call counts as a read.
    func read() -> Double {
        state.withLock { state in
            state.reads += 1
            return state.now
        }
    }

    /// The time, settable by the test.
    var now: Double {
        get { state.withLock { $0.now } }
        set { state.withLock { $0.now = newValue } }
    }

    /// How many times `read()` was called.
    var reads: Int { state.withLock { $0.reads } }

    /// `read` as the closure a cache takes.
    var closure: @Sendable () -> Double { { self.read() } }
}

import Dispatch
import MovieSearchPlatform
import Synchronization

/// A fixed number of POSIX threads answering jobs in the order they came: the threads of one `HTTPLane`. A job may
/// block (on a file, a lock, a long render): it holds its thread, never an event loop.
///
/// The threads are detached: `stop()` lets the idle ones end and never waits for one stuck in a job (a favorites
/// write waiting on another process's lock), so that the server stops within its grace period whatever a job does;
/// the process's exit ends a stuck one.
final class WorkerPool: Sendable {
    /// One job; it hands its result back itself (to its loop's mailbox).
    typealias Job = @Sendable () -> Void

    private struct State {
        var jobs: [Job] = []
        /// The first job of `jobs` not yet taken (taken ones are dropped from the front in batches).
        var next = 0
        var isStopping = false
    }

    private let state = Mutex(State())
    /// Counts the jobs waiting, plus one per thread at stop.
    private let available = DispatchSemaphore(value: 0)
    /// The number of threads.
    let threadCount: Int

    /// Starts `threads` threads (at least one).
    init(threads: Int) throws(HTTPServerError) {
        threadCount = max(1, threads)
        for _ in 0..<threadCount {
            do {
                try SystemThread.start { [self] in work() }.detach()
            } catch {
                throw .thread(error)
            }
        }
    }

    /// Queues `job` for the next free thread (dropped after `stop()`).
    func submit(_ job: @escaping Job) {
        let accepted = state.withLock { state in
            guard !state.isStopping else { return false }
            state.jobs.append(job)
            return true
        }
        if accepted { available.signal() }
    }

    /// Ends the threads once they are idle; jobs not yet started are dropped. Returns at once.
    func stop() {
        state.withLock { $0.isStopping = true }
        for _ in 0..<threadCount { available.signal() }
    }

    /// A thread's life: take the next job, run it; end when stopping.
    private func work() {
        while true {
            available.wait()
            let job: Job? = state.withLock { state in
                guard !state.isStopping, state.next < state.jobs.count else { return nil }
                let job = state.jobs[state.next]
                state.next += 1
                if state.next >= 64, state.next * 2 >= state.jobs.count {
                    state.jobs.removeSubrange(0..<state.next)
                    state.next = 0
                } else if state.next == state.jobs.count {
                    state.jobs.removeAll(keepingCapacity: true)
                    state.next = 0
                }
                return job
            }
            guard let job else {
                if state.withLock({ $0.isStopping }) { return }
                continue
            }
            job()
        }
    }
}

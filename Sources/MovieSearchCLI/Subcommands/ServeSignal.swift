import MovieSearchPlatform

/// The signals `serve` catches, and what each means: a server started in a terminal must not die with requests
/// half answered when the terminal closes (SIGHUP), nor when someone sends the signals other servers take for
/// "reload" or "status". As nginx does:
///
/// | signal | meaning |
/// |---|---|
/// | `SIGTERM`, `SIGINT`, `SIGQUIT` | stop accepting, finish the requests in flight, exit 0 |
/// | `SIGHUP` | look at the cache file and the favorites file now, and serve what changed |
/// | `SIGUSR1` | one status line on standard error |
/// | `SIGUSR2` | nothing |
enum ServeSignal {
    /// The signals caught into the self-pipe.
    static var caught: [Int32] {
        [Syscalls.Signal.terminate, Syscalls.Signal.interrupt, Syscalls.Signal.quit, Syscalls.Signal.hangUp,
         Syscalls.Signal.user1, Syscalls.Signal.user2]
    }

    /// What the signals that arrived since the last look ask for.
    struct Received {
        /// The first stop signal, if one came: it wins over the others.
        var stop: Int32?
        /// A SIGHUP came.
        var reload = false
        /// A SIGUSR1 came.
        var status = false
    }

    /// Empties the self-pipe (non-blocking, one byte per signal) and says what its bytes asked for.
    static func take(from pipe: Int32) -> Received {
        var received = Received()
        var buffer = [UInt8](repeating: 0, count: 64)
        while true {
            let result = buffer.withUnsafeMutableBytes { Syscalls.readSome(pipe, into: $0) }
            guard case let .success(count) = result, count > 0 else { break }
            for byte in buffer[0..<count] {
                let signal = Int32(byte)
                switch signal {
                case Syscalls.Signal.hangUp: received.reload = true
                case Syscalls.Signal.user1: received.status = true
                case Syscalls.Signal.user2: break
                default: if received.stop == nil { received.stop = signal }
                }
            }
        }
        return received
    }

    /// `SIGQUIT`, `SIGTERM`…: the signal's name for a message.
    static func name(_ signal: Int32) -> String {
        switch signal {
        case Syscalls.Signal.terminate: "SIGTERM"
        case Syscalls.Signal.interrupt: "SIGINT"
        case Syscalls.Signal.quit: "SIGQUIT"
        case Syscalls.Signal.hangUp: "SIGHUP"
        default: "signal \(signal)"
        }
    }
}

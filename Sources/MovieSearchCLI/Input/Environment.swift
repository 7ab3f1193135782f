import MovieSearchPlatform

/// The environment variables a command reads: the process's own, or a fixed set for tests.
enum Environment {
    case process
    case fixed([String: String])

    /// The value of `name`; an empty value counts as unset, so that `MOVIESEARCH_CACHE= moviesearch …` falls back
    /// to the default rather than failing on an empty path.
    subscript(name: String) -> String? {
        let value: String? = switch self {
        case .process: Syscalls.environmentBytes(name).map { String(decoding: $0, as: UTF8.self) }
        case let .fixed(values): values[name]
        }
        return value?.isEmpty == false ? value : nil
    }

    /// The positive whole number `name` holds (`COLUMNS=132`), clamped into `range`; `nil` when unset or not
    /// one (`0`, `-5`, `wide`, `1e3`), so that the caller falls back as for an unset variable. A number with more
    /// digits than an `Int` holds counts as very large and is clamped like any other: an environment value never
    /// traps and never reaches arithmetic or an allocation unbounded.
    func positiveNumber(_ name: String, clampedTo range: ClosedRange<Int>) -> Int? {
        guard let text = self[name],
              text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
        let value = Int(text) ?? Int.max
        guard value > 0 else { return nil }
        return min(max(value, range.lowerBound), range.upperBound)
    }

    /// The value of `name` as a path: the bytes as the process got them (a file name need not be valid UTF-8);
    /// an empty value counts as unset, as above.
    func path(_ name: String) -> FilePath? {
        let bytes: [UInt8]? = switch self {
        case .process: Syscalls.environmentBytes(name)
        case let .fixed(values): values[name].map { Array($0.utf8) }
        }
        guard let bytes, !bytes.isEmpty else { return nil }
        return FilePath(bytes: bytes)
    }
}

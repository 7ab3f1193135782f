import MovieSearch

/// The environment variables a command reads: the process's own, or a fixed set for tests.
enum Environment {
    case process
    case fixed([String: String])

    /// The value of `name`; an empty value counts as unset, so that `MOVIESEARCH_CACHE= moviesearch …` falls back
    /// to the default rather than failing on an empty path.
    subscript(name: String) -> String? {
        let value: String? = switch self {
        case .process: System.environmentValue(name)
        case let .fixed(values): values[name]
        }
        return value?.isEmpty == false ? value : nil
    }

    /// The value of `name` as a path: the bytes as the process got them (a file name need not be valid UTF-8);
    /// an empty value counts as unset, as above.
    func path(_ name: String) -> FilePath? {
        let bytes: [UInt8]? = switch self {
        case .process: System.environmentBytes(name)
        case let .fixed(values): values[name].map { Array($0.utf8) }
        }
        guard let bytes, !bytes.isEmpty else { return nil }
        return FilePath(bytes: bytes)
    }
}

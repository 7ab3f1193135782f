import MovieSearch

/// The `moviesearch` command line. (STUB: being implemented.)
public enum MovieSearchCommand {
    /// Runs the tool with the process's arguments and exits with its status.
    public static func main() {}
}

import MovieSearchCommandLine
import MovieSearchOutput

/// `--poster-size w92|w154|…|original`, a choice among the output layer's `PosterSize` cases.
extension PosterSize: ArgumentChoice {
    /// The `--poster-size` option of a command that prints poster URLs.
    static let option = DefaultedOption<PosterSize>(
        "poster-size", default: defaultSize,
        help: "The size of the poster that printed poster URLs name (show, --json): a width in pixels (w92 to w780), "
            + "or original as uploaded")
}

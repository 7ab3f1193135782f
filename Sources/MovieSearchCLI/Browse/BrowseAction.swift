/// What the driver of `browse` must do after `BrowseModel.handle(_:)`, beyond drawing the new screen.
enum BrowseAction: Equatable, Sendable {
    /// Nothing but redrawing.
    case none
    /// Leave the terminal as it was and exit with `status`: 0 after Esc on an empty query, 130 after Ctrl-C (the
    /// shells' 128 + SIGINT, as fzf does).
    case quit(status: Int32)
    /// `--print` mode: Enter chose this movie; print its `show --json` line on standard output and exit 0.
    case print(movieID: Int)
    /// Tab toggled a favorite; the model has already updated its own `favorites`. The driver saves the change
    /// (and, should saving fail, may set `favorites` back and say so in `statusMessage`).
    case favoriteChanged(movieID: Int, isFavorite: Bool)
}

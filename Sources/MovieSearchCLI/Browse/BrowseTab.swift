/// The three lists of `browse`, in the order of the tab bar and of Ctrl-T.
enum BrowseTab: Int, CaseIterable, Sendable {
    case search, top, favorites

    /// The tab Ctrl-T goes to: Search → Top 15 → Favorites → Search.
    var next: BrowseTab { BrowseTab(rawValue: (rawValue + 1) % BrowseTab.allCases.count)! }
}

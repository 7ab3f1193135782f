/// The lists of `browse`, in the order of the tab bar and of Ctrl-T.
///
/// A catalog shows the tabs `tabs(hasCriticRatings:)` gives: Critics' 15 only when some movie has a critic rating,
/// so that a catalog without any never shows an empty list.
enum BrowseTab: Int, CaseIterable, Sendable {
    /// The answer to the query.
    case search
    /// Top 15: the best movies by the users' rating (`MovieIndex.topRated(by: .rating, limit:)`).
    case top
    /// Critics' 15: the best movies by the critics' rating (`MovieIndex.topRated(by: .critic, limit:)`).
    case critics
    /// The favorite movies, newest year first.
    case favorites

    /// The tabs a catalog shows, in order: every tab, Critics' 15 only when `hasCriticRatings`.
    static func tabs(hasCriticRatings: Bool) -> [BrowseTab] {
        allCases.filter { $0 != .critics || hasCriticRatings }
    }

    /// The tab Ctrl-T goes to among `tabs` (those the catalog shows): the one after this, after the last the first.
    /// Search → Top 15 → Critics' 15 → Favorites → Search, or without Critics' 15, Top 15 → Favorites.
    func next(among tabs: [BrowseTab]) -> BrowseTab {
        guard let place = tabs.firstIndex(of: self) else { return tabs.first ?? .search }
        return tabs[(place + 1) % tabs.count]
    }
}

/// The numbers every front end shares (the CLI's `query` and `top`, `browse`, the API and the page, which reads
/// them from `GET /api/config`): one home each, so that a changed default changes every one of them.
public enum SearchLimits {
    /// How many movies a year lists when a search does not say (`query --per-year`, the API's `per_year`, the
    /// page's search).
    public static let defaultPerYear = 5
    /// How many movies a top list shows when it does not say (`top --limit`, the API's `limit`, browse's Top 15
    /// and Critics' 15 tabs, the page's top lists).
    public static let topListLength = 15
}

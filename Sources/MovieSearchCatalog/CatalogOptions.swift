/// How `CatalogDecoder` reads a catalog: its format, what to do with invalid records, and the options of the
/// line-based formats.
public struct CatalogOptions: Sendable {
    /// The format, or `nil` to detect it from the first bytes (`CatalogFormat.detect`).
    public var format: CatalogFormat?
    /// Skip invalid records (listed in `Catalog.skipped`) instead of stopping at the first one.
    public var skipInvalid: Bool
    /// IMDb only: the path of `title.ratings.tsv[.gz]`, joined on `tconst`. Without it every title is unrated.
    public var ratingsPath: String?
    /// IMDb only: the `titleType`s kept (`movie`, `tvMovie`, `tvEpisode`, …), or `nil` for all of them. Titles of
    /// other types are left out, keeping their ids (their positions) unused.
    public var titleTypes: Set<String>?
    /// CSV only: the column that holds a field whose column is named otherwise, by field (`rating` →
    /// `imdb_score`). The fields are `csvFields`.
    public var columns: [String: String]
    /// The most records read (valid, invalid or left out; and IMDb ratings rows, counted apart): past it, reading
    /// stops with `CatalogError.tooManyRecords` (`CatalogBuilder` counts the records of every format; `IMDbReader`
    /// the ratings rows, refused as `invalidRatings`). Far above any real catalog (IMDb has about 12 million
    /// titles), it bounds what a small gzip file that decodes to millions of rows can make the reader hold.
    public var maximumRecords: Int = CatalogOptions.defaultMaximumRecords
    /// Told how far reading has come (records so far), every `CatalogBuilder.progressInterval` records.
    public var progress: IndexingProgressHandler?
    /// Given the titles of the movies kept, in order, every `CatalogBuilder.titleBatchSize` movies and once more
    /// at the end, each batch copied into a `TextColumn` of its own; `nil`: kept to the catalog alone. `index`
    /// tokenizes them on another core as the catalog is read, which leaves that core mostly idle.
    package var titlesRead: (@Sendable (TextColumn) -> Void)?

    /// The fields `columns` may map, as `index --column` names them.
    public static let csvFields = ["title", "year", "release_date", "rating", "critic_rating", "genres", "cast",
                                   "original_title", "overview", "poster_path", "tmdb_id", "imdb_id"]

    /// The scale of a CSV catalog's critics' column, when given (`index --critic-scale`): 10 for 0–10, 100 for
    /// 0–100 (a Metascore: stored divided by 10, 83 as 8.3). Without it, a `metascore` column is on 100 and any
    /// other on 10.
    public var criticScale: Int?

    /// The scales `criticScale` may be.
    public static let criticScales = [10, 100]

    /// `maximumRecords` unless told otherwise: 50 million.
    public static let defaultMaximumRecords = 50_000_000

    /// IMDb's title types `index` keeps unless told otherwise.
    public static let defaultTitleTypes: Set<String> = ["movie"]

    /// Options for reading a catalog.
    public init(format: CatalogFormat? = nil, skipInvalid: Bool = false, ratingsPath: String? = nil,
                titleTypes: Set<String>? = CatalogOptions.defaultTitleTypes, columns: [String: String] = [:]) {
        self.format = format
        self.skipInvalid = skipInvalid
        self.ratingsPath = ratingsPath
        self.titleTypes = titleTypes
        self.columns = columns
    }
}

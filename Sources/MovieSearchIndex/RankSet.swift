/// The ranks of the titles that have a term in a range of terms, with how many there are: what
/// `PrefixSetReader` reads for one query token.
@_spi(Engine) public struct RankSet {
    public enum Storage {
        /// Ascending ranks, in the file (a posting list).
        case list(PackedView)
        /// Ascending ranks, Elias–Fano coded in the file (a list set).
        case coded(EliasFanoList)
        /// Ascending ranks, merged at query time (the postings of a small range of terms).
        case merged([UInt32])
        /// One bit per rank (a bitmap set).
        case bitmap(U64View)
    }

    public var cardinality: Int
    public var storage: Storage
    /// Its matches per year, in `YEAR` order: for a bitmap, and for a long list (`CacheFormat.yearCountMinimum`).
    public var yearCounts: PackedView?
    /// With `yearCounts`: the ids of its first matches in each year, `CacheFormat.firstIDsPerYear` slots a year
    /// (`BMPI`, `YCID`).
    public var firstIDs: PackedView? = nil
    /// For a bitmap set, its number among the bitmap sets (for `BMPP`, the counts of two bitmaps met).
    public var bitmapNumber: Int? = nil
    /// For a list with `yearCounts`, its range's number among the counted ranges (`YCRG`; for `LBPC`, the counts of
    /// a list met with a bitmap).
    public var countedNumber: Int? = nil

    /// Whether the set is a bitmap (else its ranks are listed).
    @inlinable public var isBitmap: Bool {
        if case .bitmap = storage { return true }
        return false
    }
}

extension RankSet {
    /// A set of `cardinality` ranks stored as `storage`, without counts per year: a filter's passing ranks.
    /// (In an extension, so that the memberwise initializer stays.)
    package init(cardinality: Int, storage: Storage) {
        self.cardinality = cardinality
        self.storage = storage
    }
}

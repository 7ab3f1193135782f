/// Reads the `YEAR` section that `CacheSections` lays out (`CacheFormat`, "Sections"): each year with its first
/// rank, years descending. Checked once per open (`validate`), read by every query and by `MovieRecords`.
@_spi(Engine) public struct YearTable {
    @usableFromInline let entries: U32View
    public let count: Int
    @usableFromInline let movieCount: Int

    /// The table of `file`, whose `YEAR` section is `years`.
    package init(file: MappedCacheFile, years: MappedCacheFile.Section) throws(CacheError) {
        count = file.yearCount
        movieCount = file.movieCount
        entries = try file.u32s(years, 0..<(count * 2))
    }

    /// Checks the ordering every query relies on, so that no query can loop or index out of range.
    package func validate(path: String) throws(CacheError) {
        for year in 0..<count {
            let ordered = year == 0 ? firstRank(0) == 0 : self.year(year) < self.year(year - 1) && firstRank(year) > firstRank(year - 1)
            guard ordered, firstRank(year) < movieCount else {
                throw .corrupt(path: path, detail: "year table out of order")
            }
        }
    }

    /// The year of entry `index`.
    @inlinable public func year(_ index: Int) -> Int { Int(Int32(bitPattern: entries[index * 2])) }
    /// The first rank of year `index`.
    @inlinable public func firstRank(_ index: Int) -> Int { Int(entries[index * 2 + 1]) }
    /// One past the last rank of year `index`: the next year's first rank, or the movie count for the last year.
    @inlinable public func endRank(_ index: Int) -> Int { index + 1 < count ? firstRank(index + 1) : movieCount }
}

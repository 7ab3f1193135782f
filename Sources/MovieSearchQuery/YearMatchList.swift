/// The years of a `SearchResult`, newest first: a random-access collection of `YearMatches`, each made as it is
/// read from the three buffers the answer was collected in (each year's figures; every year's ids end to end; their
/// typo counts).
///
///     for year in result.years { print(year.year, year.count, Array(year.movieIDs)) }
///
/// Why not an array of `YearMatches`: a short query matches in most years of a catalog (78 years on average over
/// century's keystroke set), and each `YearMatches` holds two references (its ids and its typo counts), so making
/// one per year and freeing them again was four atomic reference count changes a year, 16 % of the instructions of
/// that set in `bench`. A caller that reads every year pays those per year as before; one that reads a few, or only
/// `count`, does not.
public struct YearMatchList: RandomAccessCollection, Equatable, Sendable, ExpressibleByArrayLiteral,
    CustomStringConvertible
{
    /// One year: the year, its match count, and where its listed ids start in `ids` (they end where the next
    /// year's start).
    struct Entry: Sendable {
        var year: Int
        var count: Int
        var idsStart: Int
    }

    private let entries: [Entry]
    private let ids: [Int]
    /// One per id, or empty when every count is 0 (an exact answer).
    private let typos: [UInt16]

    /// The list of `entries`, whose ids and typo counts (empty: all 0) are `ids` and `typos`.
    init(entries: [Entry], ids: [Int], typos: [UInt16]) {
        precondition(typos.isEmpty || typos.count == ids.count, "one typo count per listed movie")
        self.entries = entries
        self.ids = ids
        self.typos = typos
    }

    /// A list of these years.
    public init(_ years: [YearMatches]) {
        var entries: [Entry] = [], ids: [Int] = [], typos: [UInt16] = []
        entries.reserveCapacity(years.count)
        let allZero = years.allSatisfy { $0.typoCounts.allSatisfy { $0 == 0 } }
        for year in years {
            entries.append(Entry(year: year.year, count: year.count, idsStart: ids.count))
            ids += year.movieIDs
            if !allZero { typos += year.typoCounts.map { UInt16(clamping: $0) } }
        }
        self.init(entries: entries, ids: ids, typos: typos)
    }

    /// A list of these years.
    public init(arrayLiteral years: YearMatches...) {
        self.init(years)
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { entries.count }

    /// The year at `position` (from 0, the newest).
    public subscript(position: Int) -> YearMatches {
        precondition(position >= 0 && position < entries.count, "YearMatchList index out of range")
        let entry = entries[position]
        let end = position + 1 < entries.count ? entries[position + 1].idsStart : ids.count
        return YearMatches(year: entry.year, count: entry.count,
                           movieIDs: MovieIDList(storage: ids, range: entry.idsStart..<end),
                           typoCounts: TypoCountList(storage: typos, range: entry.idsStart..<end))
    }

    public static func == (lhs: YearMatchList, rhs: YearMatchList) -> Bool { lhs.elementsEqual(rhs) }

    public var description: String { Array(self).description }
}

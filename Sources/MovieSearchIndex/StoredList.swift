/// One list of ranks of `POST` or `LSTD` as the section stores it (`CacheFormat`, "Elias–Fano lists"): Elias–Fano
/// coded, or packed when it holds more than `CacheFormat.codedListMaximum` ranks and no more than a list set may.
@_spi(Engine) public enum StoredList {
    case coded(EliasFanoList)
    case packed(PackedView)

    /// The list of `count` ranks below `universe` whose bytes start at `base` (checked by the caller, with the 8
    /// after them).
    init(base: UnsafeRawPointer, count: Int, universe: Int) {
        if EliasFanoList.isPacked(count: count, universe: universe) {
            self = .packed(PackedView(base: base, firstBit: 0, width: EliasFanoList.packedWidth(universe: universe),
                                      count: count))
        } else {
            self = .coded(EliasFanoList(base: base, count: count, universe: universe))
        }
    }

    /// How many ranks it holds.
    public var count: Int {
        switch self {
        case .coded(let list): list.count
        case .packed(let list): list.count
        }
    }

    /// Calls `body` with each rank, in order, until it returns false; returns whether it went through them all.
    /// Inlinable, so that `body` is inlined into the loop of the caller's module: the typo pass collects every rank
    /// of a token's lists this way, and a call through a closure for each rank was 2.5 % of the instructions of
    /// 2,000 century typo queries.
    @inlinable @discardableResult
    public func forEachRank(_ body: (UInt32) -> Bool) -> Bool {
        switch self {
        case .coded(let list):
            var stopped = false
            _ = list.forEachRank { rank in
                stopped = !body(rank)
                return !stopped
            }
            return !stopped
        case .packed(let list):
            for position in 0..<list.count where !body(list[unchecked: position]) { return false }
            return true
        }
    }

    /// The list as a set's storage.
    var storage: RankSet.Storage {
        switch self {
        case .coded(let list): .coded(list)
        case .packed(let list): .list(list)
        }
    }

    /// The list as the typo pass reads it.
    var source: RankSource {
        switch self {
        case .coded(let list): .coded(list)
        case .packed(let list): .sorted(list)
        }
    }
}

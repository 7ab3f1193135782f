/// A typo match as one integer, so that the typo pass collects, sorts, meets and ranks its matches in one array of
/// plain words, not in parallel arrays of ranks and counts:
///
///     bits 63…48   while a token is met (`QueryExecutor.keep`): 1 + the smallest distance of the token's terms
///                  found in the title so far, 0 while none is
///     bits 47…16   the rank
///     bits 15…0    the typo count so far
///
/// Sorting keys orders them by rank, then by typo count.
enum TypoMatch {
    /// The key of `rank` (below 2^32) with `typos` (at most `UInt16.max`) so far.
    @inline(__always)
    static func key(rank: Int, typos: Int) -> UInt64 {
        UInt64(truncatingIfNeeded: rank) << 16 | UInt64(truncatingIfNeeded: typos)
    }

    @inline(__always)
    static func rank(of key: UInt64) -> Int {
        Int(truncatingIfNeeded: key >> 16 & 0xFFFF_FFFF)
    }

    @inline(__always)
    static func typos(of key: UInt64) -> Int {
        Int(truncatingIfNeeded: key & 0xFFFF)
    }

    /// Whether the token being met has been found in the title.
    @inline(__always)
    static func isFound(_ key: UInt64) -> Bool {
        key >> 48 != 0
    }

    /// `key` with the token being met found at `distance`; called once per key and token. A distance is kept up to
    /// 65,534 here (the mark is one more), a larger one counted as 65,534: only a word typed 32,767 times or more
    /// has one.
    @inline(__always)
    static func found(_ key: UInt64, _ distance: Int) -> UInt64 {
        key | UInt64(truncatingIfNeeded: min(distance, 0xFFFE) &+ 1) << 48
    }

    /// A found key with the token's distance added to its typo count (saturated at `UInt16.max`) and the mark
    /// cleared, ready for the next token.
    @inline(__always)
    static func settled(_ key: UInt64) -> UInt64 {
        let typos = min(typos(of: key) &+ Int(truncatingIfNeeded: key >> 48) &- 1, Int(UInt16.max))
        return key & 0x0000_FFFF_FFFF_0000 | UInt64(truncatingIfNeeded: typos)
    }
}

/// Receives the scalars that steps 1–3 of SEARCH-SPEC "Tokens" yield, with their property words
/// (see `UnicodeProperties`); apostrophes (step 4) and token boundaries (step 5) are the receiver's business.
protocol FoldedScalarSink {
    /// Takes the next folded scalar; never a nonspacing mark.
    mutating func accept(_ scalar: UInt32, word: UInt32)
}

/// Steps 1–3 of SEARCH-SPEC "Tokens" as a stream: NFKD without nonspacing marks, full case folding, and the same
/// decomposition again.
///
///     var folding = TextFolding()
///     for scalar in text.unicodeScalars { folding.append(scalar.value, to: &sink) }
///     folding.finish(to: &sink)
///
/// Each stage works scalar by scalar and holds back only what canonical reordering may still move: a run of
/// nonstarters that survive mark deletion. Such scalars (a few Mc viramas, Hangul tone marks, musical symbols) are
/// rare, so the held-back runs are almost always empty and folding allocates nothing. Cost per scalar: one table
/// lookup; the scalars of a decomposition or folding come with their property words.
///
/// Why holding back only the survivors is exact: reordering is a stable sort by combining class of each run of
/// nonzero-class scalars, and deleting elements after a stable sort leaves the same sequence as deleting them
/// before it. Deleted marks of class 0 still end a run, as they do in the reordering they precede.
///
/// With the Unicode 14 tables, two parts of this never change the result: step 3's decomposition (no scalar that
/// survives step 1 folds to a decomposable one) and step 1's reordering (step 3 reorders the same runs again, merged
/// where a deleted mark of class 0 stood between them; that merge is why step 3's reordering does matter). Both are
/// kept so that the code stays the spec's pipeline whatever the table version.
struct TextFolding {
    private let tables: UnicodeProperties
    /// Step 1's held-back nonstarters, as `sortKey(_:combiningClass:position:)` entries.
    private var firstRun: [UInt64] = []
    /// Step 3's held-back nonstarters.
    private var secondRun: [UInt64] = []

    /// A folding with nothing held back.
    init(tables: UnicodeProperties = .shared) {
        self.tables = tables
    }

    /// Whether nothing is held back: the next starter may then go straight to the sink (the tokenizer's ASCII path).
    var isIdle: Bool { firstRun.isEmpty && secondRun.isEmpty }

    /// Folds `scalar` (a Unicode scalar value, so at most 0x10FFFF), passing to `sink` whatever becomes final.
    mutating func append<Sink: FoldedScalarSink>(_ scalar: UInt32, to sink: inout Sink) {
        let word = tables.word(of: scalar)
        if UnicodeProperties.hasMapping(word) {
            let decomposition = tables.decomposition(of: word)
            if decomposition.isEmpty {
                decomposed(scalar, word: word, to: &sink)
            } else {
                for entry in decomposition { decomposed(Self.scalar(entry), word: Self.word(entry), to: &sink) }
            }
        } else if let jamo = HangulSyllable(scalar) {
            decomposed(jamo.leading, word: tables.word(of: jamo.leading), to: &sink)
            decomposed(jamo.vowel, word: tables.word(of: jamo.vowel), to: &sink)
            if let trailing = jamo.trailing { decomposed(trailing, word: tables.word(of: trailing), to: &sink) }
        } else {
            decomposed(scalar, word: word, to: &sink)
        }
    }

    /// Releases everything held back at the end of the text.
    mutating func finish<Sink: FoldedScalarSink>(to sink: inout Sink) {
        releaseFirstRun(to: &sink)
        releaseSecondRun(to: &sink)
    }

    // MARK: Step 1: delete nonspacing marks of the decomposition, reorder the rest

    @inline(__always)
    private mutating func decomposed<Sink: FoldedScalarSink>(_ scalar: UInt32, word: UInt32, to sink: inout Sink) {
        let combiningClass = UnicodeProperties.combiningClass(of: word)
        if UnicodeProperties.scalarClass(of: word) == .nonspacingMark {
            if combiningClass == 0 { releaseFirstRun(to: &sink) }
        } else if combiningClass != 0 {
            firstRun.append(Self.sortKey(scalar, combiningClass: combiningClass, position: firstRun.count))
        } else {
            releaseFirstRun(to: &sink)
            caseFold(scalar, word: word, to: &sink)
        }
    }

    @inline(__always)
    private mutating func releaseFirstRun<Sink: FoldedScalarSink>(to sink: inout Sink) {
        if !firstRun.isEmpty { releaseFirstRunSlowly(to: &sink) }
    }

    @inline(never)
    private mutating func releaseFirstRunSlowly<Sink: FoldedScalarSink>(to sink: inout Sink) {
        firstRun.sort()
        for key in firstRun {
            let scalar = Self.scalar(key)
            caseFold(scalar, word: tables.word(of: scalar), to: &sink)
        }
        firstRun.removeAll(keepingCapacity: true)
    }

    // MARK: Step 2: full case folding

    @inline(__always)
    private mutating func caseFold<Sink: FoldedScalarSink>(_ scalar: UInt32, word: UInt32, to sink: inout Sink) {
        let folding = tables.folding(of: word)
        if folding.isEmpty {
            redecompose(scalar, word: word, to: &sink)
        } else {
            for entry in folding { redecompose(Self.scalar(entry), word: Self.word(entry), to: &sink) }
        }
    }

    // MARK: Step 3: decompose again, delete nonspacing marks, reorder the rest

    @inline(__always)
    private mutating func redecompose<Sink: FoldedScalarSink>(_ scalar: UInt32, word: UInt32, to sink: inout Sink) {
        let decomposition = tables.decomposition(of: word)
        if !decomposition.isEmpty {
            for entry in decomposition { redecomposed(Self.scalar(entry), word: Self.word(entry), to: &sink) }
        } else if let jamo = HangulSyllable(scalar) {
            redecomposed(jamo.leading, word: tables.word(of: jamo.leading), to: &sink)
            redecomposed(jamo.vowel, word: tables.word(of: jamo.vowel), to: &sink)
            if let trailing = jamo.trailing { redecomposed(trailing, word: tables.word(of: trailing), to: &sink) }
        } else {
            redecomposed(scalar, word: word, to: &sink)
        }
    }

    @inline(__always)
    private mutating func redecomposed<Sink: FoldedScalarSink>(_ scalar: UInt32, word: UInt32, to sink: inout Sink) {
        let combiningClass = UnicodeProperties.combiningClass(of: word)
        if UnicodeProperties.scalarClass(of: word) == .nonspacingMark {
            if combiningClass == 0 { releaseSecondRun(to: &sink) }
        } else if combiningClass != 0 {
            secondRun.append(Self.sortKey(scalar, combiningClass: combiningClass, position: secondRun.count))
        } else {
            releaseSecondRun(to: &sink)
            sink.accept(scalar, word: word)
        }
    }

    @inline(__always)
    private mutating func releaseSecondRun<Sink: FoldedScalarSink>(to sink: inout Sink) {
        if !secondRun.isEmpty { releaseSecondRunSlowly(to: &sink) }
    }

    @inline(never)
    private mutating func releaseSecondRunSlowly<Sink: FoldedScalarSink>(to sink: inout Sink) {
        secondRun.sort()
        for key in secondRun {
            let scalar = Self.scalar(key)
            sink.accept(scalar, word: tables.word(of: scalar))
        }
        secondRun.removeAll(keepingCapacity: true)
    }

    // MARK: Packed entries

    /// A held-back scalar packed so that sorting the integers sorts by combining class, then by position: the
    /// stable sort of canonical reordering, with no comparison closure.
    @inline(__always)
    private static func sortKey(_ scalar: UInt32, combiningClass: UInt32, position: Int) -> UInt64 {
        precondition(position < 1 << 32, "a run of more than 2^32 combining characters")
        return UInt64(combiningClass) << 53 | UInt64(position) << 21 | UInt64(scalar)
    }

    /// The scalar of a pool entry or a sort key (its low 21 bits).
    @inline(__always)
    private static func scalar(_ entry: UInt64) -> UInt32 { UInt32(truncatingIfNeeded: entry) & 0x1F_FFFF }

    /// The property word of a pool entry.
    @inline(__always)
    private static func word(_ entry: UInt64) -> UInt32 { UInt32(truncatingIfNeeded: entry >> 32) }
}

/// The canonical decomposition of a precomposed Hangul syllable into conjoining jamo, computed rather than tabled
/// (The Unicode Standard, section 3.12, "Conjoining Jamo Behavior"): 11,172 syllables would otherwise fill most of
/// the tables.
private struct HangulSyllable {
    private static let first: UInt32 = 0xAC00
    private static let vowelCount: UInt32 = 21
    private static let trailingCount: UInt32 = 28

    /// The leading consonant (U+1100...U+1112).
    let leading: UInt32
    /// The vowel (U+1161...U+1175).
    let vowel: UInt32
    /// The trailing consonant (U+11A8...U+11C2), if any.
    let trailing: UInt32?

    /// The jamo of `scalar`, or nil if it is no precomposed syllable.
    @inline(__always)
    init?(_ scalar: UInt32) {
        let index = scalar &- Self.first
        guard index < 11_172 else { return nil }
        leading = 0x1100 + index / (Self.vowelCount * Self.trailingCount)
        vowel = 0x1161 + index % (Self.vowelCount * Self.trailingCount) / Self.trailingCount
        let trailingIndex = index % Self.trailingCount
        trailing = trailingIndex == 0 ? nil : 0x11A7 + trailingIndex
    }
}

/// Receives the scalars that steps 1–3 of SPEC.md "Tokens" yield, with their property words
/// (see `UnicodeProperties`); apostrophes (step 4) and token boundaries (step 5) are the receiver's business.
protocol FoldedScalarSink {
    /// Takes the next folded scalar; never a nonspacing mark.
    mutating func accept(_ scalar: UInt32, word: UInt32)
}

/// Steps 1–3 of SPEC.md "Tokens" as a stream: NFKD without nonspacing marks, full case folding, and the same
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
    private var thirdRun: [UInt64] = []

    /// A folding with nothing held back.
    init(tables: UnicodeProperties = .shared) {
        self.tables = tables
    }

    /// Whether nothing is held back: the next starter may then go straight to the sink (the tokenizer's ASCII path).
    var isIdle: Bool { firstRun.isEmpty && thirdRun.isEmpty }

    /// Folds `scalar` (a Unicode scalar value, so at most 0x10FFFF), passing to `sink` whatever becomes final.
    mutating func append<Sink: FoldedScalarSink>(_ scalar: UInt32, to sink: inout Sink) {
        decompose(scalar, word: tables.word(of: scalar), in: .first, to: &sink)
    }

    /// Releases everything held back at the end of the text.
    mutating func finish<Sink: FoldedScalarSink>(to sink: inout Sink) {
        release(.first, to: &sink)
        release(.third, to: &sink)
    }

    // MARK: Steps 1 and 3: decompose, delete nonspacing marks, reorder the rest

    /// Step 1 or step 3, which do the same work (step 3 is "step 1 again" in the spec). The step decides which run
    /// holds back a nonstarter, and where a scalar goes once it is final: after step 1 to step 2, after step 3 to
    /// the sink.
    private enum Step {
        case first, third
    }

    // Inlined with a constant `step`, so that each step compiles to its own straight code, as if written twice.
    @inline(__always)
    private mutating func decompose<Sink: FoldedScalarSink>(
        _ scalar: UInt32, word: UInt32, in step: Step, to sink: inout Sink
    ) {
        if UnicodeProperties.hasMapping(word) {
            let decomposition = tables.decomposition(of: word)
            if decomposition.isEmpty {
                decomposed(scalar, word: word, in: step, to: &sink)
            } else {
                for entry in decomposition {
                    decomposed(Self.scalar(entry), word: Self.word(entry), in: step, to: &sink)
                }
            }
        } else if let jamo = HangulSyllable(scalar) {
            decomposed(jamo.leading, word: tables.word(of: jamo.leading), in: step, to: &sink)
            decomposed(jamo.vowel, word: tables.word(of: jamo.vowel), in: step, to: &sink)
            if let trailing = jamo.trailing {
                decomposed(trailing, word: tables.word(of: trailing), in: step, to: &sink)
            }
        } else {
            decomposed(scalar, word: word, in: step, to: &sink)
        }
    }

    /// Deletes a nonspacing mark, holds back another nonstarter, passes a starter on after the run it ends.
    @inline(__always)
    private mutating func decomposed<Sink: FoldedScalarSink>(
        _ scalar: UInt32, word: UInt32, in step: Step, to sink: inout Sink
    ) {
        let combiningClass = UnicodeProperties.combiningClass(of: word)
        if UnicodeProperties.scalarClass(of: word) == .nonspacingMark {
            if combiningClass == 0 { release(step, to: &sink) }
        } else if combiningClass != 0 {
            switch step {
            case .first: firstRun.append(Self.sortKey(scalar, combiningClass: combiningClass, position: firstRun.count))
            case .third: thirdRun.append(Self.sortKey(scalar, combiningClass: combiningClass, position: thirdRun.count))
            }
        } else {
            release(step, to: &sink)
            passOn(scalar, word: word, from: step, to: &sink)
        }
    }

    /// A scalar that is final for `step`: step 1's goes on to step 2, step 3's to the sink.
    @inline(__always)
    private mutating func passOn<Sink: FoldedScalarSink>(
        _ scalar: UInt32, word: UInt32, from step: Step, to sink: inout Sink
    ) {
        switch step {
        case .first: caseFold(scalar, word: word, to: &sink)
        case .third: sink.accept(scalar, word: word)
        }
    }

    @inline(__always)
    private mutating func release<Sink: FoldedScalarSink>(_ step: Step, to sink: inout Sink) {
        let isHolding = switch step {
        case .first: !firstRun.isEmpty
        case .third: !thirdRun.isEmpty
        }
        if isHolding { releaseSlowly(step, to: &sink) }
    }

    /// Passes on `step`'s held-back run in canonical order.
    @inline(never)
    private mutating func releaseSlowly<Sink: FoldedScalarSink>(_ step: Step, to sink: inout Sink) {
        // The run is taken out while its scalars go on (step 1's pass through step 3, which may hold back scalars
        // of its own), then put back empty, so that its capacity serves the next run.
        var run: [UInt64] = []
        switch step {
        case .first: swap(&run, &firstRun)
        case .third: swap(&run, &thirdRun)
        }
        run.sort()
        for key in run {
            let scalar = Self.scalar(key)
            passOn(scalar, word: tables.word(of: scalar), from: step, to: &sink)
        }
        run.removeAll(keepingCapacity: true)
        switch step {
        case .first: firstRun = run
        case .third: thirdRun = run
        }
    }

    // MARK: Step 2: full case folding

    @inline(__always)
    private mutating func caseFold<Sink: FoldedScalarSink>(_ scalar: UInt32, word: UInt32, to sink: inout Sink) {
        let folding = tables.folding(of: word)
        if folding.isEmpty {
            decompose(scalar, word: word, in: .third, to: &sink)
        } else {
            for entry in folding { decompose(Self.scalar(entry), word: Self.word(entry), in: .third, to: &sink) }
        }
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

/// How far indexing has come, reported to a progress display (`index` on a terminal) while a catalog is read and
/// its cache built.
public struct IndexingProgress: Sendable {
    /// The steps of indexing, in order.
    public enum Phase: String, Sendable {
        /// Reading and decoding the catalog.
        case reading
        /// Ordering the movies (year, rating) and laying out their records.
        case ranking
        /// Cutting titles into tokens and building the term dictionary and postings.
        case terms
        /// Building the prefix sets.
        case prefixSets = "prefix sets"
        /// Writing the file.
        case writing
    }

    /// The current step.
    public var phase: Phase
    /// While reading, the records read so far (valid, invalid and left out); in the later phases, the movies
    /// being indexed (the valid ones).
    public var records: Int

    /// A report.
    public init(phase: Phase, records: Int) {
        self.phase = phase
        self.records = records
    }
}

/// Where progress goes: called on the indexing thread, often (every few thousand records), so it must be cheap
/// and decide for itself how often to draw.
public typealias IndexingProgressHandler = @Sendable (IndexingProgress) -> Void

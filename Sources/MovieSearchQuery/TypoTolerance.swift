/// Whether a search may forgive typos (SPEC.md, "Typos").
///
///     try index.search("godfahter")                  // .auto: no exact match, so a typo answer
///     try index.search("godfahter", typos: .off)     // the exact answer only: empty
public enum TypoTolerance: String, Sendable, CaseIterable {
    /// Run the exact search; only when it matches no movie, run it again allowing typos.
    case auto
    /// Run the exact search only, never a typo pass.
    case off
}

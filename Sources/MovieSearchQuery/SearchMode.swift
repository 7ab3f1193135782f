/// Which of the two searches of SPEC.md "Typos" gave an answer: an answer is all exact or all typo.
public enum SearchMode: String, Sendable, CaseIterable {
    /// Every query token is a prefix of a title token (SPEC.md, "Matching").
    case exact
    /// The exact search matched nothing and this one allowed typos: each query token is within its edit budget
    /// of a prefix of a title token.
    case typo
}

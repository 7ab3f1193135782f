import MovieSearchCommandLine
import MovieSearchQuery

/// `--typos auto|off` (SPEC.md, "Typos").
extension TypoTolerance: ArgumentChoice {}

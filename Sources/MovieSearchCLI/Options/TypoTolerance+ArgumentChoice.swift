import MovieSearchCommandLine
import MovieSearchQuery

/// `--typos auto|off` (SEARCH-SPEC, "Typo tolerance").
extension TypoTolerance: ArgumentChoice {}

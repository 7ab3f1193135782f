import MovieSearchCommandLine
import MovieSearchQuery

/// `--by rating|critic` (`top`).
extension TopListOrder: ArgumentChoice {}

// The home of `moviesearch serve`, the HTTP JSON API, on the output layer that the command line uses too
// (`MovieSearchOutput`), so that an answer is the same bytes from `query --json` and from `/api/search`. It may use
// the HTTP layer (`MovieSearchHTTP`), `MovieSearchOutput` and the engine, and nothing may use it but the command
// line's `serve`.

import MovieSearchHTTP
import MovieSearchOutput

/// The server's namespace, for what the server shares across its files (its configuration, its defaults).
package enum MovieSearchServer {}

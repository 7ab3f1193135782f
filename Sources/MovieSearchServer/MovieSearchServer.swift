// The home of `moviesearch serve`, the HTTP JSON API: its event loop, HTTP/1.1 parser and routes go here, on the
// output layer that the command line uses too (`MovieSearchOutput`), so that an answer is the same bytes from
// `query --json` and from `/api/search`. The target exists before the server does so that the layering is decided
// once: it may use `MovieSearchOutput` and the engine, and nothing may use it but the command line's `serve`.

import MovieSearch
import MovieSearchOutput

/// The server's namespace. Empty until the server lands: it names the module's place in the layering.
package enum MovieSearchServer {}

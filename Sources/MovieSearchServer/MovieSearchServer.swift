// The home of `moviesearch serve`, the HTTP JSON API, on the output layer that the command line uses too
// (`MovieSearchOutput`), so that an answer is the same bytes from `query --json` and from `/api/search`. It may use
// `MovieSearchOutput` and the engine, and nothing may use it but the command line's `serve`. So far it holds the
// strict, incremental HTTP/1.1 request parser (`HTTPRequestParser`, `HTTPRequest`, `HTTPParseError`,
// `HTTPPercentDecoding`); the event loop and the routes come with the server.

import MovieSearch
import MovieSearchOutput

/// The server's namespace, for what the server will share across its files (its configuration, its defaults).
package enum MovieSearchServer {}

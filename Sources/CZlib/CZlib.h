// The system's zlib, for Swift: its header, and the two of its macros Swift cannot call.
//
// zlib's `inflateInit2` and `deflateInit2` are function-like macros that pass the header's version and the size of
// `z_stream` to the real functions, so that a library of another version refuses a stream it would misread. Swift
// imports no function-like macro, so these inline functions expand them here, in C.
#ifndef CZLIB_H
#define CZLIB_H

#include <zlib.h>

/// `inflateInit2(stream, windowBits)`.
static inline int czlib_inflateInit2(z_streamp stream, int windowBits) {
    return inflateInit2(stream, windowBits);
}

/// `deflateInit2(stream, level, Z_DEFLATED, windowBits, 8, Z_DEFAULT_STRATEGY)`: for the server's gzip answers and
/// for tests, which write gzip.
static inline int czlib_deflateInit2(z_streamp stream, int level, int windowBits) {
    return deflateInit2(stream, level, Z_DEFLATED, windowBits, 8, Z_DEFAULT_STRATEGY);
}

#endif

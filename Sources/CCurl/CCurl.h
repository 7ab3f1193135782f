// The system's libcurl, for `moviesearch-fetch`: its header, and typed wrappers of `curl_easy_setopt` and
// `curl_easy_getinfo`, which are variadic C functions that Swift cannot call.
//
// Only `moviesearch-fetch` links it (Debian's libcurl4-openssl-dev; the SDK's libcurl on Apple platforms): the
// static `moviesearch` never does, so that a `query` process does not load it (COMMANDS.md, "Photos from Flickr").
#ifndef CCURL_H
#define CCURL_H

#include <curl/curl.h>

/// `curl_easy_setopt(handle, option, value)` for an option that takes a `long`.
static inline CURLcode ccurl_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

/// `curl_easy_setopt(handle, option, value)` for an option that takes a `curl_off_t`.
static inline CURLcode ccurl_setopt_off(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}

/// `curl_easy_setopt(handle, option, value)` for an option that takes a string (copied by libcurl).
static inline CURLcode ccurl_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

/// `curl_easy_setopt(handle, option, value)` for an option that takes a pointer (`CURLOPT_WRITEDATA`).
static inline CURLcode ccurl_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}

/// The type of `CURLOPT_WRITEFUNCTION`'s callback.
typedef size_t (*ccurl_write_callback)(char *data, size_t size, size_t count, void *context);

/// `curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, callback)`.
static inline CURLcode ccurl_setopt_write_function(CURL *handle, ccurl_write_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, callback);
}

/// `curl_easy_getinfo(handle, CURLINFO_RESPONSE_CODE, &code)`.
static inline long ccurl_response_code(CURL *handle) {
    long code = 0;
    curl_easy_getinfo(handle, CURLINFO_RESPONSE_CODE, &code);
    return code;
}

#endif

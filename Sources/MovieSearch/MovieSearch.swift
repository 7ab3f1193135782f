// The one library product an app imports: `import MovieSearch` brings the whole engine's public API (and, to this
// package's own targets, its `package` API), whichever of the layered targets below declares it. The layers are
// separate modules so that the compiler, not a convention, keeps each one from using a layer above it; see
// ARCHITECTURE.md for what each holds and what it may use.

@_exported import MovieSearchCatalog
@_exported import MovieSearchFavorites
@_exported import MovieSearchIndex
@_exported import MovieSearchInput
@_exported import MovieSearchJSON
@_exported import MovieSearchLRU
@_exported import MovieSearchPhotos
@_exported import MovieSearchPlatform
@_exported import MovieSearchQuery
@_exported import MovieSearchText

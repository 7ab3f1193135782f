/// What each section holds, in a sentence, and which part of the tool reads it: the rows of `moviesearch info`
/// (`CacheLayout`). The layout itself is documented once, in `CacheFormat`; these sentences only name it.
///
/// Both are `switch`es over every tag, with no `default`, so that a new tag does not compile until it says what
/// it holds and who reads it.
extension CacheFormat.Tag {
    /// One sentence saying what the section holds, without its trailing period.
    var summary: String {
        switch self {
        case .movieIDs: "movie id per slot, less the slot (blocked)"
        case .movieYears: "each movie's year, as an entry of YEAR"
        case .movieRatings: "each movie's rating, as an entry of RATE"
        case .ratings: "the distinct ratings, descending"
        case .ranks: "movie id at each rank (the answer's order), less its year's base"
        case .topRated: "ids of the rated movies by rating, for top (the unrated follow)"
        case .years: "the years, descending, with each one's first rank"
        case .ratingScales: "what the users' and the critics' ratings are out of: 5, 10 or 100"
        case .termTextOffsets: "where each term lies in TTXT"
        case .termText: "UTF-8 text of the terms, sorted by bytes"
        case .termJump: "first term for each first byte, to narrow the binary search"
        case .postingOffsets: "postings before each term: its count is the next entry less its own"
        case .postings: "posting lists: each term's ranks, Elias-Fano coded"
        case .postingPositions: "where every 8th term's postings start in POST, and where the last end"
        case .prefixOffsets: "where each term's prefix entries lie in PRFE"
        case .prefixEntries: "ranges of terms and the stored set that holds their matches"
        case .listSetOffsets: "ranks before each list set: its count is the next entry less its own"
        case .listSetData: "list sets, Elias-Fano coded: the ranks of ranges with fewer matches"
        case .listSetPositions: "where every 8th list set starts in LSTD, and where the last ends"
        case .bitmapCardinalities: "matches in each bitmap set"
        case .bitmapYearCounts: "matches of each bitmap set per year"
        case .bitmaps: "bitmap sets: a bit per rank, for term ranges with many matches"
        case .bitmapFirstIDs: "first ids per year of each bitmap set"
        case .bitmapPairCounts: "matches per year of each pair of bitmap sets"
        case .originalTitleOffsets: "where each block of 64 original titles lies in OTLT"
        case .originalTitleText: "the original titles, 64 a block, deflated with OTLD"
        case .originalTitleLengths: "each block of original titles' length inflated"
        case .originalTitleDictionary: "original titles sampled: the dictionary of OTLT's blocks"
        case .originalTitleEmpty: "which movies have an empty original title"
        case .overviewOffsets: "where each block of 64 overviews lies in OVWT"
        case .overviewText: "the overviews, 64 a block, deflated with OVWD"
        case .overviewLengths: "each block of overviews' length inflated"
        case .overviewDictionary: "overviews sampled: the dictionary of OVWT's blocks"
        case .overviewEmpty: "which movies have an empty overview"
        case .posterPathOffsets: "where each block of 64 poster paths lies in PSTT"
        case .posterPathText: "the poster paths, 64 a block, deflated with PSTD"
        case .posterPathLengths: "each block of poster paths' length inflated"
        case .posterPathDictionary: "poster paths sampled: the dictionary of PSTT's blocks"
        case .posterPathEmpty: "which movies have an empty poster path"
        case .rangeYearCountKeys: "the term ranges of long lists that have counts per year"
        case .rangeYearCounts: "matches per year of each long list"
        case .rangeFirstIDs: "first ids per year of each long list"
        case .listPairRows: "each long list's row of counts with the bitmap sets"
        case .listPairCounts: "matches per year of long lists met with bitmap sets"
        case .tmdbIDs: "each movie's TMDb id"
        case .imdbNumbers: "each movie's IMDb id, as a number"
        case .imdbTextOffsets: "where each block of 64 IMDb ids of another form lies in IMDT"
        case .imdbText: "the IMDb ids of another form, 64 a block, deflated with IMDD"
        case .imdbTextLengths: "each block of IMDb ids' length inflated"
        case .imdbTextDictionary: "IMDb ids sampled: the dictionary of IMDT's blocks"
        case .imdbTextEmpty: "which movies have an empty IMDb id"
        case .criticRatingNumbers: "each movie's critics' rating, as an entry of CRTV"
        case .criticRatingValues: "the distinct critics' ratings, descending"
        case .topCriticRated: "movie ids by critics' rating, for top --by critic"
        case .genreNameOffsets: "where each genre's shown and folded names lie in GNMT"
        case .genreNames: "the genres' names: as the catalog first spells each, then folded"
        case .genreRankOffsets: "ranks before each genre's: its count is the next entry less its own"
        case .genreRankStarts: "where each genre's ranks start in GNRR, and where the last end"
        case .genreRanks: "each genre's movies as ranks, Elias-Fano coded, for --genre"
        case .genreSetOfRank: "each rank's set of genres, for the genre facet"
        case .genreSetOffsets: "where each set of genres lies in GSTG"
        case .genreSetGenres: "the genre numbers of each set of genres"
        case .titleBlockOffsets: "where each block of 64 titles lies in TTLZ"
        case .titleBlocks: "the titles, 64 a block, each block deflated with TTLD"
        case .titleBlockLengths: "each block of titles' length inflated"
        case .titleDictionary: "titles sampled from the catalog: the dictionary of every block of TTLZ"
        case .nameListBlockOffsets: "where each block of 64 movies' name lists lies in CSTZ"
        case .nameListBlocks: "each movie's cast and genres as name numbers, 64 a block, deflated"
        case .nameListBlockLengths: "each block of name lists' length inflated"
        case .nameListDictionary: "name lists sampled: the dictionary of CSTZ's blocks"
        case .nameBlockOffsets: "where each block of 64 cast and genre names lies in NMSZ"
        case .nameBlocks: "the cast and genre names, most named first, 64 a block, deflated"
        case .nameBlockLengths: "each block of names' length inflated"
        case .nameDictionary: "names sampled from the catalog: the dictionary of every block of NMSZ"
        case .movieIDBases: "the base of each block of 64 entries of MIDS"
        case .imdbNumberBases: "the base of each block of 64 entries of IMDB"
        case .rankBases: "each year's smallest id, which RANK's entries of the year are less"
        case .movieYearBases: "the base of each block of 64 entries of MYRS"
        case .prefixOffsetBases: "the base of each block of 64 entries of PRFO"
        case .listSetOffsetBases: "the base of each block of 64 entries of LSTO"

        case .bitmapPairWidths: "the bits per entry of each row of BMPP"
        case .bitmapPairOffsets: "where each row of BMPP starts"
        case .listPairWidths: "the bits per entry of each row of LBPC"
        case .listPairOffsets: "where each row of LBPC starts"
        }
    }

    /// The part of the tool that reads the section: a search, a movie's details and listings, or the top lists.
    var group: CacheLayout.Group {
        switch self {
        case .termTextOffsets, .termText, .termJump, .postingOffsets, .postings, .prefixOffsets, .prefixEntries,
             .listSetOffsets, .listSetData, .bitmapCardinalities, .bitmapYearCounts, .bitmaps, .bitmapFirstIDs,
             .bitmapPairCounts, .rangeYearCountKeys, .rangeYearCounts, .rangeFirstIDs, .listPairRows,
             .listPairCounts, .ranks, .rankBases, .prefixOffsetBases, .listSetOffsetBases, .years,
             .listSetPositions, .postingPositions, .bitmapPairWidths,
             .bitmapPairOffsets, .listPairWidths,
             .listPairOffsets:
            .search
        case .movieIDs, .titleBlockOffsets, .titleBlocks, .titleBlockLengths, .titleDictionary, .nameBlockOffsets,
             .nameBlocks, .nameBlockLengths, .nameDictionary, .nameListBlockOffsets, .nameListBlocks,
             .nameListBlockLengths, .nameListDictionary, .movieYears, .movieRatings, .ratings, .ratingScales,
             .originalTitleOffsets,
             .originalTitleText, .originalTitleEmpty, .overviewOffsets,
             .overviewText, .overviewEmpty, .posterPathOffsets, .posterPathText, .posterPathEmpty, .tmdbIDs,
             .imdbNumbers, .imdbTextOffsets, .imdbText, .imdbTextEmpty, .criticRatingNumbers, .criticRatingValues,
             .movieIDBases, .imdbNumberBases, .movieYearBases, .originalTitleLengths, .originalTitleDictionary,
             .overviewLengths, .overviewDictionary, .posterPathLengths, .posterPathDictionary, .imdbTextLengths,
             .imdbTextDictionary:
            .records
        case .topRated, .topCriticRated:
            .topLists
        case .genreNameOffsets, .genreNames, .genreRankOffsets, .genreRankStarts, .genreRanks, .genreSetOfRank,
             .genreSetOffsets, .genreSetGenres:
            .filters
        }
    }
}

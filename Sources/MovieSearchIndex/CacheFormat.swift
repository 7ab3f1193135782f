import MovieSearchCatalog

/// The binary cache format, version 12: the one place where it is documented.
///
/// A cache holds everything a query needs, laid out so that a query reads its answer where it lies in the
/// memory-mapped file: no JSON, no structure rebuilt in memory, and an open that costs the same whatever the size.
/// Since version 2, every integer array is stored bit-packed at the width its largest value needs (Lucene's "packed ints",
/// tantivy's bitpacked columns), which halves the file against version 1 while each entry stays one load away.
///
/// ## Overview
///
///     File      = Header, Directory, Section^S, BlockChecksums
///     Header    = Magic, Version, BlockSize, FileLength, SectionCount, MovieCount, TermCount, YearCount,
///                 BlockTableOffset, MetadataChecksum, HeaderChecksum              (64 bytes)
///     Directory = <Tag, Width, Count, Offset, Length>^S                           (32 bytes each)
///
/// Every number is little-endian. Every section starts at an offset that is a multiple of 8 (the gaps are zero),
/// though the reader never relies on alignment (it loads unaligned). Offsets in the directory are absolute file
/// offsets; offsets inside sections count bytes in byte sections (`TTXT`, `TTLZ`) and entries in packed ones.
///
/// ## Header (offset 0)
///
/// | offset | size | field              | meaning                                                            |
/// |-------:|-----:|--------------------|--------------------------------------------------------------------|
/// |      0 |    8 | magic              | `89 4D 53 43 0D 0A 1A 0A` (`\x89MSC\r\n\x1A\n`, PNG-style: catches text-mode transfers) |
/// |      8 |    4 | version            | `12`; any other value is refused with "rebuild the cache"          |
/// |     12 |    4 | blockSize          | size of a checksum block, a power of two ≥ 4096 (the writer: see below) |
/// |     16 |    8 | fileLength         | the file's size in bytes: a shorter or longer file is truncated or damaged |
/// |     24 |    4 | sectionCount (S)   | entries in the directory                                           |
/// |     28 |    4 | movieCount (N)     | movies stored                                                      |
/// |     32 |    4 | termCount (T)      | distinct title tokens, joined tokens (SPEC.md step 6) included  |
/// |     36 |    4 | yearCount (Y)      | distinct years                                                     |
/// |     40 |    8 | blockTableOffset   | where `BlockChecksums` starts; also where checksummed content ends |
/// |     48 |    8 | metadataChecksum   | XXH64 of `BlockChecksums`, seeded with XXH64 of `Directory` (seed 0) |
/// |     56 |    8 | headerChecksum     | XXH64 (seed 0) of header bytes 0..<56                              |
///
/// ## Directory (offset 64)
///
/// S entries of 32 bytes:
///
/// | offset | size | field  | meaning                                                                       |
/// |-------:|-----:|--------|-------------------------------------------------------------------------------|
/// |      0 |    4 | tag    | 4 ASCII bytes, e.g. `MIDS`; each tag appears once; unknown tags are ignored   |
/// |      4 |    4 | width  | bits per entry of a packed section, 1...32; 0 for a byte section              |
/// |      8 |    8 | count  | entries of a packed section; the length of a byte section                     |
/// |     16 |    8 | offset | absolute offset of the section                                                |
/// |     24 |    8 | length | bytes; for a packed section exactly ⌈count × width / 8⌉ + 8                   |
///
/// A **packed section** holds `count` unsigned integers of `width` bits. Entry `i` is bits `i × width ..<
/// (i + 1) × width` of the section read as one little-endian bit string (bit `b` is bit `b % 8` of byte `b / 8`).
/// Eight zero bytes follow the last entry, so that a reader may load any entry with one unaligned 8-byte load,
/// a shift and a mask. Widths are the fewest bits that hold the section's largest value (at least 1).
///
/// A **blocked section** (frame of reference, as Lucene's and tantivy's blocked columns store offsets) holds a
/// column of numbers that grow slowly from entry to entry, such as offsets into text, in two packed sections: the
/// section itself (tag `X`), whose entry `i` is the number minus its block's base, and the bases (tag `X`'s bases,
/// named with each tag below), ⌈count / 64⌉ entries, where base `k` is the smallest number of entries
/// `64k ..< 64(k + 1)`. So number `i` is `bases[i / 64] + X[i]`: two loads, and the entries are as wide as the
/// largest spread inside a block, not as the largest number (title offsets of 10 million movies: 11 bits, not 28).
/// The sections marked *blocked* below are stored so; their bases sections have the entry count above exactly.
///
/// A **row-packed section** (tag `X`, a byte section) holds R rows of Y entries (counts per year), each row packed
/// at its own width, with two packed sections of R entries beside it: `XW`, the width of each row (1...32, the
/// fewest bits that hold its largest entry), and `XO`, where each row starts in `X`, in bytes. Row r is bits
/// `i × XW[r] ..< (i + 1) × XW[r]` for its entry i of the bytes from `XO[r]` on, read as a packed section's; rows
/// start on a byte and follow each other, and 8 zero bytes follow the last, so that any entry is one 8-byte load
/// that stays in the section. The counts of two rare words met fit in 3 or 4 bits where the section's largest
/// count needs 9 to 15: century's `BMPP` takes 0.41 of what it took at one width, the 10M IMDb pair's `LBPC` 0.21. The
/// sections marked *rows* below are stored so: `BMPP` with `BMPW`, `BMPO`; `LBPC` with `LBPW`, `LBPO`.
///
/// ## Block checksums (at `blockTableOffset`, to the end of the file)
///
/// The content, from the end of the directory (rounded up to 8) to `blockTableOffset`, is cut into blocks of
/// `blockSize` bytes (the last one shorter); entry `i` is the XXH64 (seed 0) of block `i`, as a u64. The writer
/// uses 4,096-byte blocks for content of up to 4 MiB and 65,536-byte blocks above; a reader takes any power of two
/// from 4,096 to 2^30.
/// Opening a cache checks the header, the directory and this table (a few KB even for a million movies); the
/// reader checks each content block the first time a query touches it, and `MovieIndex.verify()` checks them all.
/// So a flipped byte anywhere gives a checksum error before it can give a wrong answer, and opening stays O(1)
/// in the size of the content.
///
/// ## Sections
///
/// Movies are stored in two orders: by **id** (their position in the catalog; a movie's **slot** is its place
/// in id order, equal to its id unless invalid movies were skipped) and by **rank**, the order of the answer:
/// year descending, then rating descending with unrated last, then id ascending. Posting lists hold ranks, so a
/// query that walks matches in rank order meets them already grouped by year and sorted inside it.
/// Sections marked *packed* are packed sections, *bytes* byte sections, *blocked* blocked sections (with their bases),
/// *rows* row-packed sections (with their widths and offsets), *coded* byte sections of Elias–Fano lists (with their
/// starts), and *column* the four sections of a compressed text column (all described above and below).
///
/// | tag    | kind   | entries    | content                                                                  |
/// |--------|--------|------------|--------------------------------------------------------------------------|
/// | `MIDS` | blocked | N         | movie id of slot s minus s (ids ascend, so these never fall); bases `BMID` |
/// | `MYRS` | blocked | N         | year of slot s: entry `MYRS[s]` of `YEAR`; bases `BMYR`                   |
/// | `MRAT` | packed | N          | rating of slot s: entry `MRAT[s]` of `RATE`; `R` (one past the last) means unrated |
/// | `RATE` | bytes  | 8 × R      | the distinct ratings, f64 (IEEE 754 bits), descending                     |
/// | `RSCL` | packed | 2          | the rating scales: the users' ratings', then the critics' (below)          |
/// | `RANK` | packed | N          | movie id at each rank, less its year's base in `RNKB`                     |
/// | `RNKB` | packed | Y          | the smallest id of each year's movies (in `YEAR` order): the id at rank r is `RANK[r] + RNKB[y]`, y the year of rank r (a catalog whose ids follow its years spreads a year's ids over its movies, not over the catalog) |
/// | `TOPR` | packed | ≤ N        | ids of the rated movies by rating over all years: rating descending, id ascending; the unrated ones follow it in id order, the slots whose `MRAT` is `R` |
/// | `YEAR` | bytes  | 8 × Y      | `<year: i32, firstRank: u32>`, years descending; a year's ranks end where the next year's start (the last at N) |
/// | `TTXO` | packed | T + 1      | term i is `TTXT` bytes `TTXO[i] ..< TTXO[i + 1]`; terms sorted by their UTF-8 bytes |
/// | `TTXT` | bytes  | any        | term text                                                                 |
/// | `TJMP` | packed | 257        | first term id whose first byte is ≥ b, for b in 0...256 (narrows the binary search) |
/// | `TPST` | packed | T + 1      | postings before term i: term i has `TPST[i + 1] − TPST[i]` (its count)   |
/// | `POST` | coded  | T lists    | posting lists: each term's ranks, ascending, no repeats, an Elias–Fano list or, if long, packed (below) |
/// | `TPSP` | packed | ⌈T / 8⌉ + 1 | where term 8j's list starts in `POST`, in bytes; the last entry where term T − 1's ends |
/// | `PRFO` | blocked | T + 1     | prefix entries of term i: `PRFE` pairs `PRFO[i] ..< PRFO[i + 1]`; bases `BPRF` |
/// | `PRFE` | packed | 2 × E      | pairs `<end, set>`, ascending by `end`: the terms `[i, end)` have their matches in set `set` |
/// | `LSTO` | blocked | L + 1     | ranks before list set k: it holds `LSTO[k + 1] − LSTO[k]`; bases `BLST`   |
/// | `LSTD` | coded  | L lists    | list sets: ranks, ascending, no repeats, each an Elias–Fano list or, if long, packed (below) |
/// | `LSTP` | packed | ⌈L / 8⌉ + 1 | where list set 8j starts in `LSTD`, in bytes; the last entry where set L − 1 ends |
/// | `BMPN` | packed | B          | matches in bitmap set b                                                   |
/// | `BMPC` | packed | B × Y      | matches of bitmap set b per year (in `YEAR` order): entries `b × Y ..< (b + 1) × Y` |
/// | `BMPS` | bytes  | 8 × W × B  | bitmap set b: W = ⌈N / 64⌉ u64 words from word `b × W`; bit r % 64 of word r / 64 is rank r |
/// | `BMPP` | rows   | Q(Q − 1)/2 × Y | matches per year of the intersection of each pair of the first Q bitmap sets a < b (Q = `pairedBitmapCount`: B, or fewer when that many pairs would pass `maximumPairEntries`), pairs in order (0, 1), (0, 2) … (0, Q − 1), (1, 2) …: pair p = a·Q − a(a + 1)/2 + (b − a − 1) is row p |
/// | `BMPI` | packed | B × Y × F  | first ids of bitmap set b per year: entries `(b × Y + y) × F ..< (b × Y + y + 1) × F` hold the movie ids (`RANK` values) of its first min(F, count) ranks in year y, in rank order; the slots past the count are 0 |
/// | `TTL*` | column | N          | the titles, slot s's at number s: a compressed text column (below) of tag `TTL` |
/// | `CST*` | column | N          | the names of slot s, at number s: how many are cast, then the numbers of its cast and then its genres in `NMS`, as LEB128 varints (below) |
/// | `NMS*` | column | M          | the distinct cast and genre names, name j at number j: by how many movies name them, most first, then by bytes; a compressed text column of tag `NMS` |
///
/// The **rating scales** (`RSCL`) say what the ratings are out of, so that every output shows them on it (`4/5`,
/// `7.8/10`, `78/100`): entry 0 is the users' ratings' scale, entry 1 the critics'; each is 5, 10 or 100, or 0 when
/// the ratings are on none of these (some rating exceeds 100: they are shown as they are). The writer stores the
/// scale given (`index --rating-scale`; a CSV critics' column read with `--critic-scale` is stored on 0 to 10, so
/// its scale is 10), else the smallest of 5, 10 and 100 that no rating of its kind exceeds (5 when none is rated).
/// Any other value makes the cache corrupt.
///
/// A set number `set` in `PRFE` below L (the list sets) names list set `set`, from L on bitmap set `set - L`.
///
/// A **compressed text column** `C` (titles `TTL`, name lists `CST`, names `NMS`, and the text fields below) holds
/// texts (bytes: UTF-8, or a name list's varints) numbered from 0 in blocks of 64
/// (`CacheFormat.textBlockEntries`; the last block holds the rest), each deflated on its own, so that one text
/// costs inflating its block (a few microseconds), never the column; it takes four sections:
///
/// | tag    | kind   | entries    | content                                                                  |
/// |--------|--------|------------|--------------------------------------------------------------------------|
/// | `CO`   | packed | K + 1      | block k is `CZ` bytes `CO[k] ..< CO[k + 1]` (K = ⌈texts / 64⌉)           |
/// | `CZ`   | bytes  | any        | the blocks: each a raw deflate stream (RFC 1951, no zlib header) whose preset dictionary is `CD` |
/// | `CL`   | packed | K          | the length of block k inflated                                           |
/// | `CD`   | bytes  | ≤ 32,768   | the preset dictionary: texts taken at an even stride through the column, its last 4, 8 or 16 KiB, or empty (none), whichever the writer found makes the column smallest (`CacheFormat.textDictionarySizes`) |
///
/// Block k inflates to exactly `CL[k]` bytes: the number of texts it holds, then each one's length in bytes,
/// as LEB128 varints (7 bits a byte, low bits first, the high bit set on all but the last byte), then their UTF-8
/// bytes one after the other. Every block but the last holds 64; the titles' and the name lists' blocks hold N texts
/// in all. So the tags are `TTLO`, `TTLZ`, `TTLL`, `TTLD`; `CSTO`, `CSTZ`, `CSTL`, `CSTD`; and `NMSO`, `NMSZ`,
/// `NMSL`, `NMSD`. Names are numbered most named first so that the numbers name lists hold most are the shortest
/// varints (a genre is one byte). Short texts deflate poorly alone; the
/// dictionary gives every block the words the column repeats: 64 of IMDb's titles deflate to 0.56 of their bytes
/// without it, 0.48 with 8 KiB of it (century's: 0.59 and 0.50). Deflating may use stored blocks (RFC 1951's
/// uncompressed kind): the writer stores titles so when deflating them would save less than
/// `CacheFormat.storedColumnSaving`. A block that does not inflate to exactly its length, or whose varints overrun
/// it, is corrupt; no query reads these columns (a search answers with ids), only the listings and details that
/// show a movie.
///
/// Prefix sets are what keep short prefixes fast. A query token such as `t` is a prefix of hundreds of terms;
/// merging their posting lists at query time would cost time in proportion to all their postings. So the writer
/// stores, for every prefix of at most `CacheFormat.maximumPrefixSetLength` bytes whose terms form a range of two
/// or more term ids and have more than `CacheFormat.mergeLimit` postings in all, the union of their postings once (ranges shared by several prefixes,
/// like `th` and `the` when every `th…` term is a `the…` term, are stored once), as a list set or, when that would
/// be larger or slower, as a bitmap set: exactly when it has more than `CacheFormat.bitmapMinimum(movieCount:)` ranks
/// (2⌈N / 64⌉, where the bitmap becomes the smaller, up to about 1.2 million movies; fewer above, see there). A
/// smaller range has no set: its
/// few postings, contiguous in `POST`, are merged at query time. A frequent term (`the`) gets a bitmap set beside
/// its posting list by the same rule, so that every set above that size is a bitmap and two large sets meet word
/// by word. A bitmap carries its count per year, so a one-word query such as `t` reads its counts instead of
/// counting bits, and its first F = `CacheFormat.firstIDsPerYear` (8) movie ids per year (`BMPI`), so that a
/// one-word query listing at most F a year reads its whole answer from two short runs of entries: no bit of the
/// bitmap, nor `RANK`, which at 10 million movies cost a cache miss or three per year. And every pair of bitmap
/// sets has the counts per year of its intersection (`BMPP`): a query of two frequent tokens (`the d`) reads each
/// year's count and the first words of each year, where counting would read both bitmaps whole (2.3 MB at 10 million
/// movies). At 10 million movies, 239 bitmaps make 28,441 pairs, 11 MB. The pairs are bounded
/// (`maximumPairEntries`): a catalog of many frequent words (a few thousand bitmaps) would otherwise need a number
/// of counts growing with the square of theirs; past the bound, only the first Q bitmaps are paired, and two
/// others are counted word by word as without `BMPP`.
///
/// ## Optional sections: the fields only some catalogs have
///
/// A movie may carry an original title, an overview, a TMDb poster path, a TMDb id and an IMDb id (`Movie`). Each
/// of these fields has its own sections, and they are present only when at least one movie has the field: an
/// absent section means that no movie has it, so a catalog without these fields has the same file as before them.
/// Every section below that is present holds an entry per slot.
///
/// A **text field** `F` (the original title `OTL`, the overview `OVW`, the poster path `PST`, and the IMDb ids
/// that are not of the packed form `IMD`) is a compressed text column (see "Compressed text columns" above) of N
/// texts, slot s's at number s, the empty text where the slot has none, and the flags of empty texts:
///
/// | tag    | kind   | entries    | content                                                                  |
/// |--------|--------|------------|--------------------------------------------------------------------------|
/// | `FO`   | packed | K + 1      | the column's block offsets in `FT` (K = ⌈N / 64⌉)                        |
/// | `FT`   | bytes  | any        | the column's deflated blocks                                             |
/// | `FL`   | packed | K          | the column's blocks' inflated lengths                                    |
/// | `FD`   | bytes  | ≤ 32,768   | the column's dictionary                                                  |
/// | `FE`   | packed | N          | width 1: 1 when slot s has the field as an empty text                    |
///
/// Slot s has the field when its text is not empty, or when `FE[s]` is 1. `FO`, `FT`, `FL` and `FD` are present
/// together, when any movie has the field (for `IMD`, an IMDb id not of the packed form below); `FE` only when some
/// movie has it as the empty text, which is rare: without `FE`, a slot whose text is empty has no such field. So
/// the tags are `OTLO`, `OTLT`, `OTLL`, `OTLD`, `OTLE`; `OVWO`, `OVWT`, `OVWL`, `OVWD`, `OVWE`; `PSTO`, `PSTT`,
/// `PSTL`, `PSTD`, `PSTE`; `IMDO`, `IMDT`, `IMDL`, `IMDD`, `IMDE`. A slot without the field costs a byte before
/// deflating (its length, 0), little after: the original titles of the generated 10M IMDb pair (3 % of its titles
/// have one) take 6.2 MB in all, 5.3 bits a slot, where version 7's offsets alone took 23.
///
/// | tag    | kind   | entries    | content                                                                  |
/// |--------|--------|------------|--------------------------------------------------------------------------|
/// | `TMDB` | packed | N          | TMDb id of slot s plus 1; 0 when the movie has none (ids are 0 ... 2³² − 2) |
/// | `IMDB` | blocked | N         | IMDb id of slot s as a number plus 1, 0 when it has none or one of another form; bases `BIMN` |
///
/// An IMDb id (`tconst`) of the form `tt` followed by at least 7 decimal digits, no more than 7 when the first is
/// a 0, is stored as its number n (below 2³² − 1) in `IMDB`, and read back as `tt` and n written with at least 7
/// digits (`tt0111161` ↔ 111,161; `tt10872600` ↔ 10,872,600). Every IMDb id has this form; IMDb's title list
/// comes sorted by it, so a catalog read from it has the ids ascending with the slots, and the blocked `IMDB` costs
/// as many bits as 64 consecutive ids spread over (9 bits for the generated 10M pair's titles, 25 as plain
/// numbers). Any other id (`tt00111161`, `nm0000001`, an empty text) is stored as text in the `IMD` text field, its
/// `IMDB` entry 0; so the `IMD` sections are usually absent.
///
/// A movie's **critics' rating** (0 to 10, `Movie.criticRating`) is stored as the users' rating is (`MRAT`,
/// `RATE`), with the critics' list beside it; the three sections are present together, when any movie has one:
///
/// | tag    | kind   | entries    | content                                                                  |
/// |--------|--------|------------|--------------------------------------------------------------------------|
/// | `CRIT` | packed | N          | critics' rating of slot s: entry `CRIT[s]` of `CRTV`; `V` (one past the last) means none |
/// | `CRTV` | bytes  | 8 × V      | the distinct critics' ratings, f64 (IEEE 754 bits), descending            |
/// | `TOPC` | packed | C          | the ids of the C movies that have a critics' rating, by it descending, id ascending on ties |
///
/// The reader checks the shape of every optional section at open (`FO` N + 1 entries, `FE`, `TMDB`, `IMDB`,
/// `CRIT` N, `FT` present with `FO`, `CRIT`, `CRTV` and `TOPC` together, `TOPC` no longer than N), and every range
/// and number before it reads it: offsets out of order, past the end of `FT`, or a rating number past `V`, make
/// the cache corrupt.
///
/// ## Optional sections: counts per year of long lists
///
/// | tag    | kind   | entries    | content                                                                  |
/// |--------|--------|------------|--------------------------------------------------------------------------|
/// | `YCRG` | packed | 2 × C      | pairs `<low, end>`, ascending: the term ranges `[low, end)` whose listed set has its counts here |
/// | `YCNT` | packed | C × Y      | the matches per year (in `YEAR` order) of range c: entries `c × Y ..< (c + 1) × Y` |
/// | `YCID` | packed | C × Y × F  | the first ids per year of range c's list, laid out as `BMPI`: entries `(c × Y + y) × F ..< (c × Y + y + 1) × F` |
/// | `LBPR` | packed | C          | row of range c in `LBPC` plus 1; 0 when its list is not paired             |
/// | `LBPC` | rows   | R × B × Y  | matches per year of the intersection of the list of row i with bitmap set b: its row `i × B + b` |
///
/// A range whose set is a list (a list set, or a single term's posting list) of at least
/// `CacheFormat.yearCountMinimum` ranks has its counts per year stored, as a bitmap set has in `BMPC`: a query of
/// one token then reads each year's count, and its first K ranks are the next K of the list, where it would
/// otherwise search the list for every year's end (150 searches for IMDb's years). Only large catalogs have such
/// lists (a list holds at most `CacheFormat.bitmapMinimum` ranks), so the three sections are absent from small
/// caches, and present together or not at all. The reader checks the counts against the list (their sum is its length, each year's
/// count fits the year) as it uses them. `YCID` holds each year's first F ids as `BMPI` does for bitmaps.
///
/// The longest of these lists, those of at least `CacheFormat.pairedListMinimum(movieCount:)` ranks, have the
/// counts per year of their intersection with every bitmap set (`LBPR`, `LBPC`), as bitmaps have with each other
/// (`BMPP`): a query of such a list and a bitmap (`night r`, `up in` at 10 million titles: a word of tens of
/// thousands of titles and a short prefix or a frequent word) then reads each year's count and tests the list's
/// ranks in each year only until it has the year's first K, where it would otherwise test every rank of the list
/// against the bitmap, a cache miss each in a bitmap of 1.2 MB. The rows go to the longest lists first, up to
/// `CacheFormat.maximumListPairEntries` counts (R = the rows that fit, at most); the reader works R out from the
/// rows of `LBPC` (R × B of them exactly) and checks each row number of `LBPR` against it when it reads it.
/// The sections (`LBPR`, `LBPC` with `LBPW` and `LBPO`) are present together, only with `YCRG`, and only when some
/// list is paired.
///
/// ## Elias–Fano lists: the posting lists and the list sets
///
/// A list of n ranks below N (the movie count), ascending, each once, is stored in about 2 + log₂(N / n) bits a rank
/// (Elias and Fano's code; the layout of Vigna's "Quasi-succinct indices"), where a packed list takes log₂ N: the
/// list sets of century's 36,273 movies take 9.3 bits a rank where they took 16, those of the generated 1M catalog
/// 10.5 where they took 20. A list of more than `CacheFormat.codedListMaximum` (4,096) ranks and at most
/// `CacheFormat.bitmapMinimum(movieCount:)` (the most a list set holds) is stored packed instead: n ranks of w bits
/// each, w the fewest bits that hold N − 1, ⌈n × w / 8⌉ bytes, read as a packed section's entries from its first
/// byte (a query reads a coded rank at three to four times the instructions of a packed one, which the long lists
/// that the slowest queries of a large catalog meet could not afford). Longer lists, the posting lists of frequent
/// terms, are coded again: queries read those terms through their bitmap sets. Every number of a list's
/// layout follows from n and N, so a file stores no kind, width or length per list. A coded list is:
///
/// | part         | bits                          | content                                                     |
/// |--------------|-------------------------------|-------------------------------------------------------------|
/// | samples      | 32 × ⌊(n − 1) / 64⌋           | sample j − 1 (a little-endian u32): where rank 64j's upper bit is, for j ≥ 1 |
/// | upper bits   | H = ((N − 1) >> ℓ) + n        | rank i (from 0) sets bit `(rank >> ℓ) + i`                  |
/// | low bits     | n × ℓ                         | rank i's low ℓ bits, at bits `H + i × ℓ ..< H + (i + 1) × ℓ` |
///
/// with ℓ = ⌊log₂(N / n)⌋ (0 when n > N / 2). A list starts on a byte: its samples, then one bit string (bit b is bit
/// b % 8 of byte b / 8) of its upper bits followed by its low bits, rounded up to a byte; so it is 4 × ⌊(n − 1) / 64⌋
/// + ⌈(H + n × ℓ) / 8⌉ bytes (0 when n = 0). The lists of a section follow each other; eight zero bytes follow the
/// last, so that a reader may load 8 bytes anywhere in a list. Rank i is `(p − i) << ℓ | low(i)`, p the position of
/// its upper bit, the (i + 1)-th set bit: the set bits before a rank's, less their number, are the zeros before it,
/// which are its high part.
///
/// A section keeps the start of every 8th list (`TPSP`, `LSTP`: entry j is where list 8j starts, the last entry where
/// the last list ends), so list k starts at entry ⌊k / 8⌋ plus the lengths (coded or packed) of the lists of its
/// block before it, which their counts (`TPST`, `LSTO`) give: at most 7 lengths added, where a start per list would cost the 771,544 terms of
/// the 10M IMDb pair 2.7 MB. The reader checks each count against N, and the lengths of each block of 8 it reads
/// whole against the next start (a list ending inside a block must not pass it): a count or a start out of place is
/// corrupt, not a list read from the wrong bytes.
///
/// A query reads a list forward, as Lucene's and tantivy's postings are read: the next rank is the next set upper
/// bit (a bit scan and one load of low bits), and `advance(to: x)` skips the ranks below x without visiting them,
/// counting the zeros of the upper bits a word at a time (by popcount) to the (x >> ℓ)-th, the end of the bucket of
/// x's high part, then reading the few ranks of that bucket: a year of a few hundred ranks costs a few words. The
/// samples let a reader start at any rank (`LBPC`'s years start at positions their counts give) after counting at
/// most 64 ranks' bits.
///
/// Worked example: ranks 3, 4, 9, 14 below N = 16: n = 4, ℓ = ⌊log₂ 4⌋ = 2; no samples; high parts 0, 1, 2, 3 set
/// upper bits 0, 2, 4, 6 of H = (15 >> 2) + 4 = 7; the low parts 3, 0, 1, 2 follow at bits 7–8, 9–10, 11–12,
/// 13–14: the bits `1010101` then `11 00 10 01` (each low part written low bit first), two bytes, `0b1101_0101`
/// `0b0100_1001`. Reading rank 2: its upper bit is the third set bit, bit 4, so its high part is 4 − 2 = 2 and the rank
/// is 2 << 2 | 1 = 9. `advance(to: 8)`: 8 >> 2 = 2, so the ranks below 8 are those before the second zero (bit 3):
/// the set bits before it are 2 (bits 0 and 2), so the cursor moves to rank 2, which is 9.
///
/// ## A query, step by step
///
/// 1. Cut the query into tokens (`Tokenizer`). For each, a binary search in `TTXO`/`TTXT` within the bucket of its
///    first byte (`TJMP`) narrows both ends of the range of term ids `[lo, hi)` of the terms it is a prefix of
///    until one term matches, then one search on each side finds each end (terms sorted by bytes make that range
///    contiguous); a one-byte token's range is its bucket.
/// 2. Each range names its set of ranks: the set `PRFO`/`PRFE` give for `[lo, hi)`; else, for a single term, its
///    posting list; else the merged postings of the terms `lo ..< hi` (their lists end to end in `POST`). Sets are
///    met smallest first. If the smallest is a list, it is read forward and its ranks are filtered by each other set
///    in turn: a bit test for a bitmap; for another list (both ascend), a cursor advanced to each candidate through
///    it (a coded list) or a search (a merged one), and when it is of like size (and the candidates are 1,024 or
///    more) a bit test against an 8 KB bitmap of its ranks made for the query, one block of 2^16 ranks at a time.
///    If it is a bitmap, all are, and they are ANDed word by word.
/// 3. Matches come in rank order: `YEAR` cuts them into years (a cursor advanced to each year's end in a coded list,
///    a search in a merged one, a popcount per year in a bitmap), which gives each year's count and its first K
///    ranks; `RANK` turns ranks into ids.
///    Nothing is sorted at query time but a small merged range. A query of one token whose set has its counts
///    per year (`BMPC`, `YCNT`) and lists K ≤ F a year reads the counts and the first ids (`BMPI`, `YCID`) only;
///    one of exactly two bitmap sets reads their pair's counts (`BMPP`) and each year's first words; one of a
///    paired list and a bitmap set reads their counts (`LBPC`) and tests each year's ranks of the list (found from
///    its `YCNT`) until it has the year's first K.
/// 4. Only if that matched nothing (and typo tolerance is on), the typo pass (SPEC.md, "Typos";
///    `QueryExecutor+Typos`): a token of 5 scalars or more, without a number, walks the terms that begin with its
///    first scalar as a trie, one optimal-string-alignment row per trie node (`TypoTermWalk`, `AlignmentRows`).
///    The trie (`TypoTrie`: each node's scalar, depth, subtree end, first term and height) is built in memory
///    from that range of `TTXO`/`TTXT` on the letter's second walk, and kept by the index (the first walk goes
///    through the sorted terms, keeping the rows of the prefix each shares with the one before). As soon as a
///    node's rows show that no term below it can lower its distance (counting the scalars the query has left
///    that its subtree's terms are too short to take), the node's whole subtree of terms is one range at that
///    distance, passed over in one jump. Each range found is read as in step 2, but a range without a stored
///    set gives its terms' postings as they lie, unmerged (`RankSource`); the token with the fewest ranks
///    drives (its ranks sorted once, each with its smallest distance), the others keep the candidates one of
///    their ranges holds, adding the smallest distance among them, and each year lists fewer typos first. The
///    format holds nothing for this pass but the sorted terms it already has.
///
/// ## Filter sections: genres by rank
///
/// What `--genre` and the genre facet read (SEARCH-SPEC, "Filters and facets"); every cache has them, empty ones
/// when no movie has a genre. A **genre** is a distinct folded genre name (`NameFolding`: steps 1–4 of "Tokens",
/// white space collapsed and trimmed); genres are numbered 0..<G in the byte order of their folded names, which is
/// Unicode scalar order, so the facet's tie order (count descending, then folded name) is count descending, then
/// genre number. A **genre set** is the set of genres of one or more movies; sets are numbered in order of first use
/// by rank, set 0 being the empty set.
///
/// | tag    | kind   | entries    | content                                                                  |
/// |--------|--------|------------|--------------------------------------------------------------------------|
/// | `GNMO` | packed | 2G + 1     | genre g's shown name is `GNMT` bytes `GNMO[2g] ..< GNMO[2g + 1]`, its folded name `GNMO[2g + 1] ..< GNMO[2g + 2]` |
/// | `GNMT` | bytes  | any        | the names: each genre's as the lowest-id movie that has it spells it (its first genre of that folding), then folded |
/// | `GNRO` | packed | G + 1      | ranks before genre g's: it has `GNRO[g + 1] − GNRO[g]` movies            |
/// | `GNRP` | packed | G + 1      | genre g's list is `GNRR` bytes `GNRP[g] ..< GNRP[g + 1]` (`GNRP[0] = 0`) |
/// | `GNRR` | coded  | any        | each genre's ranks, ascending, each once (a movie listing a genre twice is listed once), as an Elias–Fano list below N, end to end; then 8 zero bytes |
/// | `GSET` | packed | N          | the genre set of the movie at each rank                                  |
/// | `GSTO` | packed | S + 1      | genre set s is `GSTG` entries `GSTO[s] ..< GSTO[s + 1]` (`GSTO[0] = GSTO[1] = 0`: set 0 is empty) |
/// | `GSTG` | packed | any        | genre numbers, ascending within each set                                  |
///
/// Each genre's list is coded as the posting lists are ("Elias–Fano lists" above), whatever its length (no list is
/// packed here): 2 + log₂(N / n) bits a rank, where version 11 packed each at log₂ N. The reader checks each count
/// (`GNRO`) against N, each start (`GNRP`) against the next, and each list's bytes against the length its count
/// gives; a start or a count out of place is corrupt.
///
/// A **genre filter** is a binary search of the folded name among `GNMO`/`GNMT` (a name no genre has: nothing
/// passes), then that genre's list; a year range is a range of ranks (`YEAR`), so the part of the list within it
/// starts and ends where a cursor's `advance(to:)` stops, and a rating cut keeps a prefix of each year's ranks
/// (ratings descend within a year), found by a binary search over the ratings of the year's ranks (`RANK`,
/// `MRAT`). Several genres meet as lists
/// do in a query (the smallest drives). Cast filters and the critics' cut read the records (`CST*`, `NMS*`, `CRIT`)
/// of each candidate: no section is kept for them. The passing ranks are worked out once per distinct filter (the
/// index keeps the last 8) with a bitmap of them; a query's smallest list then tests each of its ranks against
/// that bitmap, and a query of bitmaps only ANDs them with it over the filter's range of words, counting each year
/// by popcount: counts and the movies listed come from the passing matches, never from an answer cut down.
/// The **genre facet** reads `GSET` once per match and counts sets, then adds each set's count to its genres: one
/// load per match whatever a movie's genres, and the sets are few (century's 36,273 movies have 1,637 sets of 41
/// genres; IMDb's titles, at most three of 28 genres each, at most 3,683: the generated 10M pair has 1,296). In
/// version 10 the sections cost century 186 KB (`GNRR` 128 KB packed, `GSET` 50 KB) and the generated 10M IMDb pair
/// 63.3 MB (`GNRR` 50.5 MB, `GSET` 12.8 MB); coded, `GNRR` takes century 45 KB and the 10M pair 12.1 MB.
///
/// Worked example: movies `0 {"genres":["Drama"]}` (2012), `1 {"genres":["drama ","Comedy"]}` (2011), `2` without
/// genres (2010): ranks are `[0, 1, 2]`; genres by folded name: `comedy` (0, shown `Comedy`), `drama` (1, shown
/// `Drama`, movie 0's spelling). `GNMT` = `ComedycomedyDramadrama`, `GNMO` = `[0, 6, 12, 17, 22]`; `GNRO` =
/// `[0, 1, 3]`: comedy's ranks `[1]`, drama's `[0, 1]`, coded below N = 3. Comedy's: ℓ = ⌊log₂ 3⌋ = 1, H = (2 >> 1)
/// + 1 = 2, rank 1 sets upper bit 0 and its low bit 1 is bit 2: byte `0x05`. Drama's: ℓ = 0, H = 2 + 2 = 4, ranks 0
/// and 1 set upper bits 0 and 2: byte `0x05`. `GNRR` = `05 05` and 8 zero bytes, `GNRP` = `[0, 1, 2]`; sets by
/// first use: rank 0 `{1}` is set 1, rank 1 `{0, 1}` set 2, rank 2 the empty set 0: `GSET` = `[1, 2, 0]`, `GSTO` =
/// `[0, 0, 1, 3]`, `GSTG` = `[1, 0, 1]`. `--genre DRAMA` folds to `drama`, genre 1, ranks `[0, 1]`; the facet of
/// those two matches counts set 1 once and set 2 once: `Drama` 2, `Comedy` 1.
///
/// The reader checks at open that `GNMO` has 2G + 1 entries and `GNRO` and `GNRP` G + 1 (G from `GNMO`), `GSET` N
/// and `GSTO` at least 2; it checks every offset against its section, and every rank, set and genre number against
/// N, S and G, when it reads it: offsets out of order or past the end, a rank list not ascending, or a number out of
/// range make the cache corrupt.
///
/// ## Worked example
///
/// Catalog `[{"title":"Dark","year":2010,"rating":3}, {"title":"The Dark Knight","year":2012}]`: ranks are
/// `[1, 0]` (2012 first), so the ids by rank are `[1, 0]`: each year has one movie, so `RNKB` = `[1, 0]` and `RANK`
/// = `[0, 0]`; `YEAR` = `[(2012, 0), (2010, 1)]`, `MYRS` = `[1, 0]` (blocked: bases `BMYR` = `[0]`),
/// `RATE` = `[3.0]` and `MRAT` = `[0, 1]` (1 = unrated). Terms `dark, knight, the`: `TTXO` = `[0, 4, 10, 13]`,
/// postings `dark → [0, 1]`, `knight → [0]`, `the → [0]`, so `TPST` = `[0, 2, 3, 4]`. With N = 2, `dark`'s list
/// has ℓ = 0 and upper bits 0 and 1 + 1 = 2 of H = 1 + 2 = 3: the byte `0b101`; `knight`'s and `the`'s have ℓ = 1,
/// the upper bit 0 of H = 0 + 1 = 1 and then the low bit 0: the byte `0b01` each. `POST` is those three bytes and
/// eight zero bytes, `TPSP` = `[0, 3]` (term 0 starts at 0, the last ends at 3). Query `kn`: range `[1, 2)`
/// (one term, so its set is the posting list `[0]`), year 2012 with count 1 and id 1. No prefix covers two terms,
/// so `PRFE` is empty. The ids are the slots, so `MIDS` (each id less its slot) is `[0, 0]` at width 1 and its
/// bases `BMID` = `[0]`. The titles make one block of the column `TTL`, which inflates to the 22 bytes `02 04 0F`
/// `Dark` `The Dark Knight` (two texts, of 4 and 15 bytes), so `TTLL` = `[22]` and `TTLO` = `[0, z]`, z the
/// length of its deflated stream in `TTLZ`; `TTLD` is empty (the two titles as a dictionary would cost more than
/// they save). No movie has cast or genres: the column `NMS` has no block (`NMSO` = `[0]`, `NMSL`, `NMSZ` and `NMSD`
/// empty).
///
/// ## Compatibility
///
/// A change to anything above bumps `version`. Old caches are refused with a message to rebuild them (they are
/// derived data: the catalog is the source of truth). Version 1 stored 32-bit arrays, 40-byte movie records and
/// a set for every prefix range of two terms. Version 2 had the same layout as version 3, but its terms lacked the
/// joined tokens of SPEC.md "Tokens" step 6 (`spiderman` for "Spider-Man"): such a cache would answer
/// `spiderman` with nothing, so it is refused too. Version 3 had no optional sections: its layout is version 4's
/// for a catalog without the optional fields, but a version-3 reader would ignore those sections (unknown tags are
/// ignored) and show movies without their fields, and a version-3 cache of a catalog that had them lost them. So
/// a version-3 cache is refused as well, with the same message: rebuilding it from its catalog keeps the fields.
/// Version 4 had no first ids per year (`BMPI`, `YCID`) nor counts of pairs of bitmaps (`BMPP`), and its lists
/// held up to 2⌈N / 64⌉ ranks whatever the catalog's size; it is refused with the same message (rebuilding adds
/// them). Version 5 had no counts of lists met with bitmaps (`LBPR`, `LBPC`): its answers are the same, but a
/// large catalog's slowest queries are slower, so it is refused with the same message too. Version 6 had no
/// critics' ratings (`CRIT`, `CRTV`, `TOPC`): a version-6 reader would ignore them, so a catalog that has them
/// would lose them silently; version 6 is refused too, and rebuilding from the catalog keeps them. Version 7 is
/// refused with the same message: its layout is another (this one read it wrongly). It kept titles and names as
/// plain text (`STRG`, with their offsets in `MTTL` and `NAME`) and each movie's name list as packed name numbers
/// (`MLST`, `MCST`, `LIST`), where version 8 has compressed text columns (`TTL*`, `CST*`, `NMS*`, and the text
/// fields'); its ids, years, ranks, IMDb numbers and offsets were packed at the width of their largest number,
/// where version 8 has blocked sections and ranks less their year's base (`RNKB`); its `BMPP` and `LBPC` were
/// packed at one width, where version 8 gives each row its own; and its `TOPR` listed every movie, where version 8
/// lists the rated ones. A version-8 cache of century's 36,273 movies is 0.70 of a version-7 one, of the generated
/// 10M IMDb pair 0.73. Version 8 had no rating scales (`RSCL`): its layout is version 9's without that section,
/// and every output showed ratings out of 10 whatever the catalog's scale (the decade catalog's 1 to 5 as `2/10`);
/// it is refused with the same message, and rebuilding records the scales. Version 9 had no genre sections
/// (`GNMO` … `GSTG`): it is refused with the same message, and rebuilding adds them. Version 10 stored the posting
/// lists and list sets packed (`POST`, `LSTD`, with `TPST` and `LSTO` as entry offsets into them) where version 11 codes
/// them as Elias–Fano lists (those of at most 4,096 ranks) with their starts (`TPSP`, `LSTP`): this reader would
/// read its lists wrongly, so it is refused with the same message. A version-11 cache of century is 0.915 of a
/// version-10 one, of the generated 1M catalog 0.92, of the generated 10M IMDb pair 0.97. Version 11 stored each
/// genre's ranks packed (`GNRR` a packed section, `GNRO` entry offsets into it) where version 12 codes them as
/// Elias–Fano lists with their starts (`GNRP`): it is refused with the same message. A version-12 cache of century
/// is 0.96 of a version-11 one, of the generated 1M catalog 0.97, of the generated 10M IMDb pair 0.95.
package enum CacheFormat {
    /// `\x89MSC\r\n\x1A\n`.
    static let magic: [UInt8] = [0x89, 0x4D, 0x53, 0x43, 0x0D, 0x0A, 0x1A, 0x0A]
    /// The version this build writes and reads.
    package static let version: UInt32 = 12
    /// Bytes in the fixed header.
    static let headerSize = 64
    /// Bytes in one directory entry.
    static let directoryEntrySize = 32
    /// The checksum block size the writer uses for content of more than `smallContentLimit` bytes.
    static let blockSize = 65_536
    /// The checksum block size the writer uses for content of up to `smallContentLimit` bytes: a short-lived
    /// process querying a small cache hashes the 4 KB blocks it reads, not 64 KB around each (`query dark` on
    /// the decade cache hashed all of its 232 KB with 64 KB blocks, about 150 KB with 4 KB ones: the titles it
    /// lists lie all over their section). The table stays small (1,024 entries at most); larger caches keep
    /// 64 KB blocks, so that their table stays a few KB.
    static let smallBlockSize = 4096
    /// Content up to this size is cut into `smallBlockSize` blocks.
    static let smallContentLimit = 4 << 20

    /// The block size the writer uses for `contentLength` bytes of content.
    static func blockSize(contentLength: Int) -> Int {
        contentLength <= smallContentLimit ? smallBlockSize : blockSize
    }
    /// Zero bytes after the last entry of a packed section, so that any entry can be read with one 8-byte load.
    static let packedPadding = 8
    /// The widest packed entry, in bits.
    static let maximumWidth = 32

    // MARK: Limits a reader enforces, and sizes that follow from the counts

    /// The smallest checksum block size a reader accepts (a power of two).
    static let minimumBlockSize = 4096
    /// The largest checksum block size a reader accepts: far above what the writer uses, low enough that a block
    /// offset cannot overflow.
    static let maximumBlockSize = 1 << 30
    /// The most directory entries a reader accepts: far more than the tags there are, few enough that a forged
    /// count cannot make opening slow.
    static let maximumSectionCount = 1024
    /// Entries of the term jump table `TJMP`: one per first byte 0...255, and one past the last.
    static let termJumpCount = 257
    /// Ranges of terms whose postings number at most this many get no prefix set: a query merges them, which
    /// costs less than a set's bytes are worth. (The reader merges any range without a set, whatever this is: the
    /// writer may change it without a new version.)
    static let mergeLimit = 16
    /// The longest prefix, in bytes, that gets a prefix set. Without a bound, a title of two long words that share
    /// most of their bytes costs time quadratic in their length to index (every prefix length is a binary search
    /// comparing that many bytes); with it, indexing stays linear. A longer query token is typed by nobody, and its
    /// range is merged at query time like any range without a set. (A writer's choice, as `mergeLimit` is.)
    static let maximumPrefixSetLength = 64

    /// The fewest ranks a listed set (a list set, or a single term's posting list) must hold to have its counts per
    /// year stored (`YCRG`, `YCNT`): cutting a long list into years costs a search per year, reading the counts
    /// none. (A writer's choice: the reader uses whatever counts the file has.)
    static let yearCountMinimum = 2048

    /// The most ranks a list of `POST` or `LSTD` is Elias–Fano coded with, unless it is longer than any list set
    /// (`bitmapMinimum(movieCount:)`: a frequent term's posting list, which queries read through its bitmap set);
    /// a list between the two is stored packed, each rank at the width of the largest (`CacheFormat`, "Elias–Fano
    /// lists"). A coded rank costs a query three to four times the instructions of a packed one (a bit scan, a shift
    /// and a load of low bits, where a rank of 24 bits is one load): over the long lists that the slowest queries of a
    /// large catalog meet with each other, that made the 10M IMDb pair's p99 1.6 to 1.8 times version 10's.
    package static let codedListMaximum = 4096

    /// The movie ids a cache can store (32 bits: `MIDS` and `RANK` hold them as `UInt32`), and so the ids a lookup
    /// may name (`show <id>`, `favorites add <id>`, a favorites file's entries) before the cache says whether the
    /// movie exists. Not the range of the TMDb ids a catalog gives (`Movie.tmdbIDRange`).
    package static let movieIDRange = 0...Int(UInt32.max)

    /// F: the first ids stored per year for a set with counts per year (`BMPI`, `YCID`). A query that lists at most
    /// this many a year (every front end lists `SearchLimits.defaultPerYear`, 5, by default) answers one token from
    /// them alone.
    package static let firstIDsPerYear = 8

    /// The most ranks a set of a catalog of `movieCount` movies is stored as a list with; a larger one is a bitmap
    /// set. (A writer's choice: the reader takes any set as it is stored.)
    ///
    /// 2W (W = ⌈N / 64⌉) is where a bitmap becomes the smaller of the two. But meeting a set as a list costs a step
    /// per rank, and as a bitmap a bit test per rank of the other set: in a large catalog, a list of hundreds of
    /// thousands of ranks met by a word of a few thousand titles (`up in`) cost a millisecond where the bitmap
    /// costs tens of microseconds. So a list holds at most `max(W / 2, bitmapListFloor)` ranks when that is less
    /// than 2W: a catalog of up to about 1.2 million movies keeps 2W (and its file its size), one of 1.2 to 4.7
    /// million `bitmapListFloor`, a larger one W / 2 (for the 9,320,401 titles of the generated 10M IMDb pair,
    /// 72,816 ranks: about 190 more bitmaps, 170 MB more file).
    static func bitmapMinimum(movieCount: Int) -> Int {
        let words = bitmapWordCount(movieCount: movieCount)
        return min(2 * words, max(words / 2, bitmapListFloor))
    }

    /// Lists of up to this many ranks are walked fast enough that no catalog makes them bitmaps below 2W
    /// (`bitmapMinimum(movieCount:)`).
    static let bitmapListFloor = 36_864

    /// The pair number of bitmap sets `a` < `b` among the `bitmapCount` paired ones in `BMPP`: pairs in order
    /// (0, 1), (0, 2) … (0, Q − 1), (1, 2) …
    static func bitmapPairIndex(_ a: Int, _ b: Int, bitmapCount: Int) -> Int {
        a * bitmapCount - a * (a + 1) / 2 + (b - a - 1)
    }

    /// The most entries `BMPP` holds (pairs × years): twice what 10 million IMDb titles need (239 bitmaps, 157
    /// years: 4.5 million), and a bound on what a catalog of many frequent words can make the writer compute and
    /// store (about 8 MB at 8 bits a count).
    static let maximumPairEntries = 1 << 23

    /// Q, how many bitmap sets (the first ones) the writer pairs in `BMPP`: all `bitmapCount` when their pairs fit
    /// in `maximumEntries` counts of `yearCount` years, else the most that do.
    static func pairedBitmapCount(bitmapCount: Int, yearCount: Int, maximumEntries: Int = maximumPairEntries) -> Int {
        guard bitmapCount > 1, yearCount > 0 else { return bitmapCount }
        let pairs = maximumEntries / yearCount
        // The largest Q with Q(Q − 1)/2 ≤ pairs, from the square root, then nudged to be exact.
        var paired = Int((1 + (1 + 8 * Double(pairs)).squareRoot()) / 2)
        while paired * (paired - 1) / 2 > pairs { paired -= 1 }
        while (paired + 1) * paired / 2 <= pairs { paired += 1 }
        return min(bitmapCount, paired)
    }

    /// Q as a reader finds it: the number of bitmap sets whose pairs `BMPP`'s `entries` counts of `yearCount` years
    /// are, or `nil` when no whole number of sets makes that many (a damaged file).
    static func pairedBitmapCount(pairEntries entries: Int, yearCount: Int) -> Int? {
        guard entries > 0 else { return entries == 0 ? 0 : nil }
        guard yearCount > 0 else { return nil }
        guard entries % yearCount == 0 else { return nil }
        let pairs = entries / yearCount
        var paired = Int((1 + (1 + 8 * Double(pairs)).squareRoot()) / 2)
        while paired > 0, paired * (paired - 1) / 2 > pairs { paired -= 1 }
        while (paired + 1) * paired / 2 <= pairs { paired += 1 }
        return paired * (paired - 1) / 2 == pairs ? paired : nil
    }

    /// The fewest ranks a counted list must hold to be paired with the bitmap sets (`LBPR`, `LBPC`): a sixth of
    /// the most a list holds (`bitmapMinimum(movieCount:)`; 12,136 ranks for the 9,320,401 titles of the 10M IMDb
    /// pair, whose keystroke queries of a word of 12,000 to 18,000 titles and a short prefix were among their
    /// slowest). Shorter lists are tested against a bitmap fast enough. Below 393,216 movies this is under
    /// `yearCountMinimum`, so every counted list is paired; below 65,536 there are no counted lists at all (a list
    /// holds at most 2⌈N / 64⌉ ranks there). (A writer's choice: the reader uses the rows the file has.)
    static func pairedListMinimum(movieCount: Int) -> Int {
        bitmapMinimum(movieCount: movieCount) / 6
    }

    /// The most entries `LBPC` holds (rows × bitmap sets × years): the 10M IMDb pair's 239 bitmaps and 158 years
    /// take 856 rows, all its lists of 12,136 ranks or more (60.6 MB at 15 bits a count, 32.3 million entries of
    /// 33.6); a catalog of more bitmaps gets fewer rows, the longest lists'.
    static let maximumListPairEntries = 1 << 25

    /// u64 words of one bitmap set over `movieCount` ranks (`BMPS`): W = ⌈N / 64⌉.
    package static func bitmapWordCount(movieCount: Int) -> Int { (movieCount + 63) / 64 }

    /// Byte offsets of the header fields, as in the header's table above (the magic is at 0).
    enum HeaderField {
        static let version = 8, blockSize = 12, fileLength = 16, sectionCount = 24
        static let movieCount = 28, termCount = 32, yearCount = 36
        static let blockTableOffset = 40, metadataChecksum = 48, headerChecksum = 56
    }

    /// Byte offsets of the fields of a directory entry, as in the directory's table above.
    enum DirectoryField {
        static let tag = 0, width = 4, count = 8, offset = 16, length = 24
    }

    /// Section tags, as they appear in the directory.
    enum Tag: String, CaseIterable {
        case movieIDs = "MIDS"
        case movieYears = "MYRS"
        case movieRatings = "MRAT"
        case ratings = "RATE"
        case ranks = "RANK"
        case topRated = "TOPR"
        case years = "YEAR"
        case ratingScales = "RSCL"
        case termTextOffsets = "TTXO"
        case termText = "TTXT"
        case termJump = "TJMP"
        case postingOffsets = "TPST"
        case postings = "POST"
        case postingPositions = "TPSP"
        case prefixOffsets = "PRFO"
        case prefixEntries = "PRFE"
        case listSetOffsets = "LSTO"
        case listSetData = "LSTD"
        case listSetPositions = "LSTP"
        case bitmapCardinalities = "BMPN"
        case bitmapYearCounts = "BMPC"
        case bitmaps = "BMPS"
        case bitmapFirstIDs = "BMPI"
        case bitmapPairCounts = "BMPP"
        // Optional sections ("Optional sections" above): present only when some movie has the field.
        case originalTitleOffsets = "OTLO"
        case originalTitleText = "OTLT"
        case originalTitleEmpty = "OTLE"
        case overviewOffsets = "OVWO"
        case overviewText = "OVWT"
        case overviewEmpty = "OVWE"
        case posterPathOffsets = "PSTO"
        case posterPathText = "PSTT"
        case posterPathEmpty = "PSTE"
        case rangeYearCountKeys = "YCRG"
        case rangeYearCounts = "YCNT"
        case rangeFirstIDs = "YCID"
        case listPairRows = "LBPR"
        case listPairCounts = "LBPC"
        case tmdbIDs = "TMDB"
        case imdbNumbers = "IMDB"
        case imdbTextOffsets = "IMDO"
        case imdbText = "IMDT"
        case imdbTextEmpty = "IMDE"
        case originalTitleLengths = "OTLL"
        case originalTitleDictionary = "OTLD"
        case overviewLengths = "OVWL"
        case overviewDictionary = "OVWD"
        case posterPathLengths = "PSTL"
        case posterPathDictionary = "PSTD"
        case imdbTextLengths = "IMDL"
        case imdbTextDictionary = "IMDD"
        case criticRatingNumbers = "CRIT"
        case criticRatingValues = "CRTV"
        case topCriticRated = "TOPC"
        // The genres by rank, for filters and the genre facet ("Filter sections").
        case genreNameOffsets = "GNMO"
        case genreNames = "GNMT"
        case genreRankOffsets = "GNRO"
        case genreRankStarts = "GNRP"
        case genreRanks = "GNRR"
        case genreSetOfRank = "GSET"
        case genreSetOffsets = "GSTO"
        case genreSetGenres = "GSTG"
        // The compressed text columns of titles, name lists and names ("Compressed text columns" above).
        case titleBlockOffsets = "TTLO"
        case titleBlocks = "TTLZ"
        case titleBlockLengths = "TTLL"
        case titleDictionary = "TTLD"
        case nameListBlockOffsets = "CSTO"
        case nameListBlocks = "CSTZ"
        case nameListBlockLengths = "CSTL"
        case nameListDictionary = "CSTD"
        case nameBlockOffsets = "NMSO"
        case nameBlocks = "NMSZ"
        case nameBlockLengths = "NMSL"
        case nameDictionary = "NMSD"
        // The bases of the blocked sections ("Blocked sections" above).
        case movieIDBases = "BMID"
        case imdbNumberBases = "BIMN"
        case rankBases = "RNKB"
        case movieYearBases = "BMYR"
        case prefixOffsetBases = "BPRF"
        case listSetOffsetBases = "BLST"
        // The widths and offsets of the rows of the row-packed sections ("Row-packed sections" above).
        case bitmapPairWidths = "BMPW"
        case bitmapPairOffsets = "BMPO"
        case listPairWidths = "LBPW"
        case listPairOffsets = "LBPO"

        /// Whether the section may be absent: a field no movie has, or counts no list needs ("Optional sections"
        /// above).
        var isOptional: Bool {
            switch self {
            case .rangeYearCountKeys, .rangeYearCounts, .rangeFirstIDs, .listPairRows, .listPairCounts,
                 .listPairWidths, .listPairOffsets,
                 .originalTitleOffsets, .originalTitleText, .originalTitleEmpty, .overviewOffsets, .overviewText,
                 .overviewEmpty, .posterPathOffsets, .posterPathText, .posterPathEmpty, .tmdbIDs, .imdbNumbers,
                 .imdbTextOffsets, .imdbText, .imdbTextEmpty, .criticRatingNumbers, .criticRatingValues,
                 .topCriticRated, .imdbNumberBases, .originalTitleLengths, .originalTitleDictionary, .overviewLengths,
                 .overviewDictionary, .posterPathLengths, .posterPathDictionary, .imdbTextLengths, .imdbTextDictionary:
                return true
            default:
                return false
            }
        }

        /// The sections every cache has.
        static var required: [Tag] { allCases.filter { !$0.isOptional } }

        /// The sections of the widths and of the offsets of the rows of this row-packed section ("Row-packed
        /// sections" above), `nil` for a section of another kind.
        var rowTables: (widths: Tag, offsets: Tag)? {
            switch self {
            case .bitmapPairCounts: (.bitmapPairWidths, .bitmapPairOffsets)
            case .listPairCounts: (.listPairWidths, .listPairOffsets)
            default: nil
            }
        }

        /// The section of bases of this blocked section ("Blocked sections" above), `nil` for a section of
        /// another kind.
        var bases: Tag? {
            switch self {
            case .movieIDs: .movieIDBases
            case .imdbNumbers: .imdbNumberBases
            case .movieYears: .movieYearBases
            case .prefixOffsets: .prefixOffsetBases
            case .listSetOffsets: .listSetOffsetBases
            default: nil
            }
        }

        /// The tag as the u32 stored in the directory (its four ASCII bytes, little-endian). Read from the bytes in
        /// place (a tag is a small string, copied to the stack), not by walking `String.UTF8View`: an open looks up
        /// every tag.
        var code: UInt32 {
            let bytes = { (bytes: UnsafeBufferPointer<UInt8>) -> UInt32 in
                var value: UInt32 = 0
                for index in bytes.indices { value |= UInt32(bytes[index]) << (8 * UInt32(index)) }
                return value
            }
            return rawValue.utf8.withContiguousStorageIfAvailable(bytes) ?? Array(rawValue.utf8).withUnsafeBufferPointer(bytes)
        }
    }

    /// A compressed text column's four sections ("Compressed text columns"): the titles in slot order, or the
    /// distinct cast and genre names in byte order.
    enum TextColumn {
        case titles, nameLists, names
        /// The texts of an optional text field, one a slot (empty where the slot has none).
        case field(TextField)

        /// The column's four sections: its block offsets (`CO`), blocks (`CZ`), their lengths inflated (`CL`) and
        /// its dictionary (`CD`).
        private var sections: (offsets: Tag, blocks: Tag, lengths: Tag, dictionary: Tag) {
            switch self {
            case .titles: (.titleBlockOffsets, .titleBlocks, .titleBlockLengths, .titleDictionary)
            case .nameLists: (.nameListBlockOffsets, .nameListBlocks, .nameListBlockLengths, .nameListDictionary)
            case .names: (.nameBlockOffsets, .nameBlocks, .nameBlockLengths, .nameDictionary)
            case .field(.originalTitle):
                (.originalTitleOffsets, .originalTitleText, .originalTitleLengths, .originalTitleDictionary)
            case .field(.overview): (.overviewOffsets, .overviewText, .overviewLengths, .overviewDictionary)
            case .field(.posterPath): (.posterPathOffsets, .posterPathText, .posterPathLengths, .posterPathDictionary)
            case .field(.imdbID): (.imdbTextOffsets, .imdbText, .imdbTextLengths, .imdbTextDictionary)
            }
        }

        var blockOffsets: Tag { sections.offsets }
        var blocks: Tag { sections.blocks }
        var blockLengths: Tag { sections.lengths }
        var dictionary: Tag { sections.dictionary }

        /// The column's four tags.
        var tags: [Tag] { [blockOffsets, blocks, blockLengths, dictionary] }

        /// The column's name in error messages.
        var name: String {
            switch self {
            case .titles: "titles"
            case .nameLists: "cast and genre lists"
            case .names: "cast and genre names"
            case .field(let field): field.name
            }
        }
    }

    /// Texts per block of a compressed text column: 64 titles of IMDb deflate to 0.47 of their bytes with the
    /// column's dictionary (0.50 in blocks of 32, 0.45 of 128), and one title costs inflating 63 others.
    static let textBlockEntries = 64

    /// The sizes of preset dictionary a writer tries for a compressed text column (and none), keeping whichever
    /// makes the column smallest: century's titles deflate to 350 KB with 8 KiB of them, 344 KB with 16 KiB; 32
    /// KiB gains no more, and setting a dictionary costs the writer a pass over it for every block. (A writer's
    /// choice: the reader takes any dictionary of up to 32 KiB, deflate's window.)
    static let textDictionarySizes = [4096, 8192, 16384]

    /// The least deflating the titles must save for the writer to deflate them, else their blocks are stored as
    /// they are (stored deflate blocks, no dictionary): below it the bytes saved are few, while every movie an answer
    /// lists inflates its block, which in a small cache costs more than the whole rest of a one-query process
    /// (PERFORMANCE.md, "Figures behind the code"). The decade catalog's titles are stored; century's are deflated.
    /// (A writer's choice: the reader inflates either.)
    static let storedColumnSaving = 64 << 10

    /// The most bytes of a preset dictionary a reader accepts: deflate's window.
    static let textDictionaryLimit = 32768

    /// Blocks of a compressed text column of `count` texts: ⌈count / 64⌉.
    static func textBlockCount(entries count: Int) -> Int {
        (count + textBlockEntries - 1) / textBlockEntries
    }

    /// A text field's three sections ("Optional sections"): offsets per slot, text, and the flags of empty texts.
    enum TextField: CaseIterable {
        case originalTitle, overview, posterPath, imdbID

        /// The field's compressed text column ("Compressed text columns"): its texts, one a slot.
        var column: TextColumn { .field(self) }

        /// The column's block offsets (`FO`), the section whose presence says the field is stored.
        var offsets: Tag { column.blockOffsets }

        /// The column's deflated blocks (`FT`).
        var text: Tag { column.blocks }

        var empty: Tag {
            switch self {
            case .originalTitle: .originalTitleEmpty
            case .overview: .overviewEmpty
            case .posterPath: .posterPathEmpty
            case .imdbID: .imdbTextEmpty
            }
        }

        /// The field's name in error messages.
        var name: String {
            switch self {
            case .originalTitle: "original titles"
            case .overview: "overviews"
            case .posterPath: "poster paths"
            case .imdbID: "IMDb ids"
            }
        }
    }

    /// Entries per block of a blocked section ("Blocked sections"): one base per 64 entries costs half a bit an
    /// entry, and a block's entries span a 64th of what the whole section spans.
    static let blockedEntries = 64

    /// Bases of a blocked section of `count` entries: ⌈count / 64⌉.
    static func blockedBaseCount(entries count: Int) -> Int {
        (count + blockedEntries - 1) / blockedEntries
    }

    /// The fewest digits of the number of an IMDb id of the packed form (`tt0111161`).
    static let imdbMinimumDigits = 7

    /// The number that `IMDB` stores for `imdbID` (`tt0111161` → 111,161), or `nil` when the id is not of the
    /// packed form ("Optional sections"): `tt`, then at least 7 decimal digits, the first not 0 when there are more
    /// than 7, for a number below 2³² − 1. Reading the number back with `imdbID(number:)` gives exactly `imdbID`.
    package static func imdbNumber(_ imdbID: String) -> UInt32? {
        imdbNumber(utf8: imdbID.utf8)
    }

    /// `imdbNumber(_:)` of the id whose UTF-8 bytes are `bytes`.
    static func imdbNumber(utf8 bytes: some Collection<UInt8>) -> UInt32? {
        let digits = bytes.count - 2
        // 10 digits hold every number below 2³²; more would not fit (and could overflow the sum below).
        guard digits >= imdbMinimumDigits, digits <= 10 else { return nil }
        var number: UInt64 = 0
        for (position, byte) in bytes.enumerated() {
            if position < 2 {
                guard byte == UInt8(ascii: "t") else { return nil }
                continue
            }
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9"),
                  position > 2 || digits == imdbMinimumDigits || byte != UInt8(ascii: "0")
            else { return nil }
            number = number * 10 + UInt64(byte - UInt8(ascii: "0"))
        }
        return number < UInt64(UInt32.max) ? UInt32(number) : nil
    }

    /// The IMDb id whose number `IMDB` stores: `tt` and `number` written with at least 7 digits.
    static func imdbID(number: UInt32) -> String {
        let digits = String(number)
        return "tt" + String(repeating: "0", count: max(0, imdbMinimumDigits - digits.count)) + digits
    }

    /// Bytes of a packed section of `count` entries of `width` bits, padding included.
    static func packedLength(count: Int, width: Int) -> Int {
        (count * width + 7) / 8 + packedPadding
    }

    /// The fewest bits (at least 1) that hold `value`: the width of a packed section whose largest entry it is.
    static func width(of value: UInt32) -> Int {
        max(1, UInt32.bitWidth - value.leadingZeroBitCount)
    }

    /// A rating scale as `RSCL` stores it: 5, 10 or 100, 0 for none.
    static func storedScale(_ scale: RatingScale?) -> UInt32 {
        UInt32(scale?.rawValue ?? 0)
    }

    /// The rating scale `RSCL` stores as `value`: `.some(nil)` for 0 (none), `nil` for a value that is no scale (a
    /// damaged file).
    static func scale(stored value: UInt32) -> RatingScale?? {
        value == 0 ? .some(nil) : RatingScale(rawValue: Int(value)).map { .some($0) }
    }

    /// Rounds `value` up to a multiple of 8, the alignment of every section.
    static func aligned(_ value: Int) -> Int { (value + 7) & ~7 }
}

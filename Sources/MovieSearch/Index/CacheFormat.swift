/// The binary cache format, version 1: the one place where it is documented.
///
/// A cache holds everything a query needs, laid out so that a query reads its answer where it lies in the
/// memory-mapped file: no JSON, no structure rebuilt in memory, and an open that costs the same whatever the size.
///
/// ## Overview
///
///     File      = Header, Directory, Section^S, BlockChecksums
///     Header    = Magic, Version, BlockSize, FileLength, SectionCount, MovieCount, TermCount, YearCount,
///                 BlockTableOffset, MetadataChecksum, HeaderChecksum              (64 bytes)
///     Directory = <Tag, Reserved, Offset, Length>^S                               (24 bytes each)
///
/// Every number is little-endian. Every section starts at an offset that is a multiple of 8 (the gaps are zero),
/// though the reader never relies on alignment (it loads unaligned). Offsets in the directory are absolute file
/// offsets; offsets inside sections are relative to the start of the section they point into, counted in bytes
/// for `TTXT` and `STRG`, in entries for the `u32` arrays.
///
/// ## Header (offset 0)
///
/// | offset | size | field              | meaning                                                            |
/// |-------:|-----:|--------------------|--------------------------------------------------------------------|
/// |      0 |    8 | magic              | `89 4D 53 43 0D 0A 1A 0A` (`\x89MSC\r\n\x1A\n`, PNG-style: catches text-mode transfers) |
/// |      8 |    4 | version            | `1`; any other value is refused with "rebuild the cache"           |
/// |     12 |    4 | blockSize          | size of a checksum block, a power of two ≥ 4096 (the writer uses 65,536) |
/// |     16 |    8 | fileLength         | the file's size in bytes: a shorter or longer file is truncated or damaged |
/// |     24 |    4 | sectionCount (S)   | entries in the directory                                           |
/// |     28 |    4 | movieCount (N)     | movies stored                                                      |
/// |     32 |    4 | termCount (T)      | distinct title tokens                                              |
/// |     36 |    4 | yearCount (Y)      | distinct years                                                     |
/// |     40 |    8 | blockTableOffset   | where `BlockChecksums` starts; also where checksummed content ends |
/// |     48 |    8 | metadataChecksum   | XXH64 of `BlockChecksums`, seeded with XXH64 of `Directory` (seed 0) |
/// |     56 |    8 | headerChecksum     | XXH64 (seed 0) of header bytes 0..<56                              |
///
/// ## Directory (offset 64)
///
/// S entries of 24 bytes: `tag` (4 ASCII bytes, e.g. `MOVI`), `reserved` (4 bytes, zero), `offset` (u64),
/// `length` (u64, in bytes). A reader looks sections up by tag; each tag appears once; unknown tags are ignored,
/// so a later version may add sections without breaking the layout of this table.
///
/// ## Block checksums (at `blockTableOffset`, to the end of the file)
///
/// The content, from the end of the directory (rounded up to 8) to `blockTableOffset`, is cut into blocks of
/// `blockSize` bytes (the last one shorter); entry `i` is the XXH64 (seed 0) of block `i`, as a u64.
/// Opening a cache checks the header, the directory and this table (a few KB even for a million movies); the
/// reader checks each content block the first time a query touches it, and `MovieIndex.verify()` checks them all.
/// So a flipped byte anywhere gives a checksum error before it can give a wrong answer, and opening stays O(1)
/// in the size of the content.
///
/// ## Sections
///
/// Movies are stored in two orders: by **id** (their position in the catalog) and by **rank**, the order of the
/// answer: year descending, then rating descending with unrated last, then id ascending. Posting lists hold
/// ranks, so a query that walks matches in rank order meets them already grouped by year and sorted inside it.
///
/// | tag    | length (bytes)  | content                                                                     |
/// |--------|-----------------|-----------------------------------------------------------------------------|
/// | `MOVI` | 40 × N          | movie records in catalog order, so ids ascend (below)                        |
/// | `RANK` | 4 × N           | u32 movie id at each rank                                                    |
/// | `TOPR` | 4 × N           | u32 movie ids by rating over all years: rating descending, unrated last, id ascending |
/// | `YEAR` | 8 × Y           | `<year: i32, firstRank: u32>`, years descending; a year's ranks end where the next year's start (the last at N) |
/// | `TERM` | 8 × (T + 1)     | `<textStart: u32, postingStart: u32>` per term, terms sorted by their UTF-8 bytes; entry T closes the last term |
/// | `TJMP` | 4 × 257         | u32 first term id whose first byte is ≥ b, for b in 0...256 (narrows the binary search) |
/// | `TTXT` | any             | term text: term i is bytes `textStart[i] ..< textStart[i+1]`                 |
/// | `POST` | 4 × P           | posting lists: term i's are entries `postingStart[i] ..< postingStart[i+1]`, u32 ranks, ascending, no repeats |
/// | `PRFO` | 4 × (T + 1)     | prefix entries of term i: `PRFE` entries `PRFO[i] ..< PRFO[i+1]`             |
/// | `PRFE` | 8 × E           | `<end: u32, set: u32>`, ascending by `end`: the range `[i, end)` has its matches in set `set`; there is one for every prefix range of two terms or more, and one with `end = i + 1` for a term whose posting list is longer than a bitmap |
/// | `SETS` | 24 × S          | `<kind: u32, cardinality: u32, start: u32, length: u32, yearCounts: u32, reserved: u32>`: a set of ranks in `SETD` entries `start ..< start + length`; kind 0 is an ascending list of u32 ranks (`yearCounts` is `0xFFFFFFFF`), kind 1 a bitmap of ⌈N / 64⌉ little-endian u64 words (bit r % 64 of word r / 64 is rank r) whose matches per year are `SETY` entries `yearCounts ..< yearCounts + Y` |
/// | `SETD` | 4 × D           | set data (u32 units; a bitmap's u64 words take two each)                     |
/// | `SETY` | 4 × Y × B       | u32 match counts per year (in `YEAR` order) of each bitmap set               |
/// | `NAME` | 8 × M           | `<start: u32, length: u32>` into `STRG`: the distinct cast and genre names, sorted by bytes |
/// | `LIST` | 4 × L           | u32 name ids: each movie's cast, then its genres, in catalog order           |
/// | `STRG` | any             | UTF-8 text of titles (in id order) and names                                 |
///
/// Prefix sets are what keep short prefixes fast. A query token such as `t` is a prefix of hundreds of terms;
/// merging their posting lists at query time would cost time in proportion to all their postings. So the writer
/// stores, for every prefix whose terms form a range of two or more term ids, the union of their postings once
/// (ranges shared by several prefixes, like `th` and `the` when every `th…` term is a `the…` term, are stored
/// once), as a sorted list or, when that would be larger, as a bitmap over ranks. Storage stays near the total of
/// posting lists times the depth of the term trie; a bitmap is never larger than the list it replaces. A frequent
/// term (`the`) gets a bitmap beside its posting list, so that every set larger than N / 32 is a bitmap and two
/// large sets meet word by word. A bitmap carries its count per year, so a one-word query such as `t` reads its
/// counts instead of counting bits.
///
/// A movie record (`MOVI`, 40 bytes):
///
/// | offset | size | field      | meaning                                                              |
/// |-------:|-----:|------------|----------------------------------------------------------------------|
/// |      0 |    4 | titleStart | byte offset of the title in `STRG`                                   |
/// |      4 |    4 | titleLength| bytes of the title                                                   |
/// |      8 |    4 | year       | i32                                                                  |
/// |     12 |    4 | id         | u32, the movie's position in the catalog file; equal to the record's index unless invalid movies were skipped (then a binary search over this field finds an id) |
/// |     16 |    8 | rating     | f64 (IEEE 754 bits); NaN means unrated (a catalog rating is always finite) |
/// |     24 |    4 | listStart  | first entry of the movie's cast in `LIST`; its genres follow the cast |
/// |     28 |    4 | castCount  | cast names                                                           |
/// |     32 |    4 | genreCount | genre names                                                          |
/// |     36 |    4 | reserved   | zero                                                                 |
///
/// ## A query, step by step
///
/// 1. Cut the query into tokens (`Tokenizer`). For each, two binary searches in `TERM`/`TTXT` give the range of
///    term ids `[lo, hi)` of the terms it is a prefix of (terms sorted by bytes make that range contiguous).
/// 2. Each range names its set of ranks: the set `PRFO`/`PRFE` give for `[lo, hi)`, else (a single, rarer term)
///    its posting list. Sets are met smallest first. If the smallest is a list, its ranks are filtered by each
///    other set in turn: a bit test for a bitmap, an exponential search for a list (both lists ascend). If it is
///    a bitmap, all are, and they are ANDed word by word.
/// 3. Matches come in rank order: `YEAR` cuts them into years (a binary search per year in a list, a popcount
///    per year in a bitmap), which gives each year's count and its first K ranks; `RANK` turns ranks into ids.
///    Nothing is sorted at query time.
///
/// ## Worked example
///
/// Catalog `[{"title":"Dark","year":2010,"rating":3}, {"title":"The Dark Knight","year":2012}]`: ranks are
/// `[1, 0]` (2012 first), `RANK` = `[1, 0]`, `YEAR` = `[(2012, 0), (2010, 1)]`, terms `dark, knight, the` with
/// postings `dark → [0, 1]`, `knight → [0]`, `the → [0]`. Query `kn`: range `[1, 2)` (one term, so its set is
/// the posting list `[0]`), year 2012 with count 1 and id 1. No prefix covers two terms, so `PRFE` and `SETS` are
/// empty; with a third title "Darkness", the prefix `dark` would cover `[0, 2)` and get a set of its own.
///
/// ## Compatibility
///
/// A change to anything above bumps `version`. Old caches are refused with a message to rebuild them (they are
/// derived data: the catalog is the source of truth).
enum CacheFormat {
    /// `\x89MSC\r\n\x1A\n`.
    static let magic: [UInt8] = [0x89, 0x4D, 0x53, 0x43, 0x0D, 0x0A, 0x1A, 0x0A]
    /// The version this build writes and reads.
    static let version: UInt32 = 1
    /// Bytes in the fixed header.
    static let headerSize = 64
    /// Bytes in one directory entry.
    static let directoryEntrySize = 24
    /// The checksum block size the writer uses.
    static let blockSize = 65_536
    /// Bytes in one `MOVI` record.
    static let movieRecordSize = 40

    /// Byte offsets of the header fields.
    enum HeaderField {
        static let version = 8
        static let blockSize = 12
        static let fileLength = 16
        static let sectionCount = 24
        static let movieCount = 28
        static let termCount = 32
        static let yearCount = 36
        static let blockTableOffset = 40
        static let metadataChecksum = 48
        static let headerChecksum = 56
    }

    /// Section tags, as they appear in the directory.
    enum Tag: String, CaseIterable {
        case movies = "MOVI"
        case ranks = "RANK"
        case topRated = "TOPR"
        case years = "YEAR"
        case terms = "TERM"
        case termJump = "TJMP"
        case termText = "TTXT"
        case postings = "POST"
        case prefixOffsets = "PRFO"
        case prefixEntries = "PRFE"
        case sets = "SETS"
        case setData = "SETD"
        case setYearCounts = "SETY"
        case names = "NAME"
        case lists = "LIST"
        case strings = "STRG"

        /// The tag as the u32 stored in the directory (its four ASCII bytes, little-endian).
        var code: UInt32 {
            var value: UInt32 = 0
            for (index, byte) in rawValue.utf8.enumerated() { value |= UInt32(byte) << (8 * UInt32(index)) }
            return value
        }
    }

    /// Rounds `value` up to a multiple of 8, the alignment of every section.
    static func aligned(_ value: Int) -> Int { (value + 7) & ~7 }
}

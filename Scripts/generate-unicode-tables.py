#!/usr/bin/env python3
"""Writes Sources/MovieSearchText/UnicodeTables.swift: the Unicode data the tokenizer needs (SPEC.md, "Tokens").

The library may not import Foundation, and the Swift standard library offers neither NFKD nor case folding, so this
script takes both from Python's `unicodedata` (whose version it records in the output) and encodes them compactly.

    python3 Scripts/generate-unicode-tables.py

Layout (decoded once, at first use, by `UnicodeProperties`):
- Every code point has a 32-bit property word: bits 0-1 its class (0 separator, 1 token character [L*, N*, Mc, Me],
  2 nonspacing mark [Mn], 3 apostrophe [U+0027, U+2018, U+2019, U+02BC]), bits 2-9 its canonical combining class,
  bit 10 set for general category P* or S* (a separator that joins words, step 6), bit 11 set for general
  category N* (a number: no typo budget), bits 12-31 a mapping record number (0: none). Hangul syllables get no record: they decompose algorithmically.
- The words sit in a two-stage table: `blockIndex[cp >> 7]` names a block of 128 words; identical blocks are shared.
- A mapping record holds the scalar's full NFKD decomposition (empty if none) and its full case folding
  (CaseFolding.txt statuses C and F, what `str.casefold()` implements; empty if none).

Encoding: the first three tables are streams of unsigned integers; each integer is written little-endian in 5-bit
digits, one ASCII character per digit, character = 0x3F + digit + (0x20 if more digits follow). The pool is written
at a fixed width instead, 4 characters of 6 bits per scalar, least significant first, character = 0x3F + digit, so
that its bulk decodes in a tight loop. All characters lie in 0x3F...0x7E and need no escaping in a raw string
literal. Each table is a single line: the decoder then needs no check for layout characters, and a generated file
is not read line by line anyway.
- blockIndexRuns: pairs (run length, block number) covering 0x110000 >> 7 entries.
- blockRuns: per block, in block order, pairs (run length, property word without record bits) covering 128 words.
- records: per mapping record, in code-point order: code point minus the previous record's code point, then
  decomposition length << 2 | folding length (foldings are at most 3 scalars long). Record numbers count from 1 in
  this order.
- pool: the scalars of every record's decomposition, then of its folding, record after record.
"""

import os
import sys
import unicodedata

BLOCK_SHIFT = 7
BLOCK_SIZE = 1 << BLOCK_SHIFT
CODE_SPACE = 0x110000
HANGUL_FIRST, HANGUL_COUNT = 0xAC00, 11172
APOSTROPHES = {0x0027, 0x2018, 0x2019, 0x02BC}
SEPARATOR, TOKEN, NONSPACING_MARK, APOSTROPHE = 0, 1, 2, 3
JOINS_BIT = 1 << 10
NUMBER_BIT = 1 << 11
RECORD_SHIFT = 12

OUTPUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Sources", "MovieSearchText",
                      "UnicodeTables.swift")


def is_surrogate(cp):
    return 0xD800 <= cp < 0xE000


def scalar_class(cp):
    if cp in APOSTROPHES:
        return APOSTROPHE
    category = unicodedata.category(chr(cp))
    if category == "Mn":
        return NONSPACING_MARK
    if category[0] in "LN" or category in ("Mc", "Me"):
        return TOKEN
    return SEPARATOR


def mapping_of(cp):
    """(decomposition, folding) as code point lists, each empty when the scalar maps to itself; None if neither."""
    if is_surrogate(cp) or HANGUL_FIRST <= cp < HANGUL_FIRST + HANGUL_COUNT:
        return None
    s = chr(cp)
    decomposition = unicodedata.normalize("NFKD", s)
    folding = s.casefold()
    decomposition = [] if decomposition == s else [ord(c) for c in decomposition]
    folding = [] if folding == s else [ord(c) for c in folding]
    if not decomposition and not folding:
        return None
    return decomposition, folding


def encode(numbers):
    out = []
    for n in numbers:
        assert n >= 0
        while True:
            digit = n & 0x1F
            n >>= 5
            out.append(chr(0x3F + digit + (0x20 if n else 0)))
            if not n:
                break
    return "".join(out)


def encode_fixed_width(scalars):
    out = []
    for n in scalars:
        assert 0 <= n < 1 << 24
        out += [chr(0x3F + (n >> shift & 0x3F)) for shift in (0, 6, 12, 18)]
    return "".join(out)


def runs(values):
    """(length, value) pairs of consecutive equal values."""
    out = []
    for v in values:
        if out and out[-1][1] == v:
            out[-1][0] += 1
        else:
            out.append([1, v])
    return out


def literal(name, doc, text):
    return f"    /// {doc}\n    static let {name}: StaticString = #\"{text}\"#\n"


def main():
    words = []
    mappings = []  # (code point, decomposition, folding)
    for cp in range(CODE_SPACE):
        word = scalar_class(cp) | unicodedata.combining(chr(cp)) << 2
        if unicodedata.category(chr(cp))[0] in "PS":
            word |= JOINS_BIT
        if unicodedata.category(chr(cp))[0] == "N":
            word |= NUMBER_BIT
        mapping = mapping_of(cp)
        if mapping is not None:
            mappings.append((cp,) + mapping)
            word |= len(mappings) << RECORD_SHIFT
        words.append(word)

    # Full decompositions are final: what they yield never decomposes further, so one table pass suffices.
    for _, decomposition, _ in mappings:
        for d in decomposition:
            assert unicodedata.normalize("NFKD", chr(d)) == chr(d)

    block_numbers = {}
    block_index = []
    block_words = []
    for start in range(0, CODE_SPACE, BLOCK_SIZE):
        block = tuple(words[start:start + BLOCK_SIZE])
        if block not in block_numbers:
            block_numbers[block] = len(block_numbers)
            block_words.append(block)
        block_index.append(block_numbers[block])
    # A block holding a mapping record is unique (record numbers are), so filling records in afterwards through
    # the block index never writes into a shared block.
    assert len(block_numbers) < 1 << 16 and len(mappings) < 1 << (32 - RECORD_SHIFT)

    record_mask = (1 << RECORD_SHIFT) - 1
    index_stream = [n for run in runs(block_index) for n in run]
    block_stream = [n for block in block_words for run in runs([w & record_mask for w in block]) for n in run]
    record_stream = []
    pool = []
    previous = 0
    for cp, decomposition, folding in mappings:
        assert len(folding) < 4
        record_stream += [cp - previous, len(decomposition) << 2 | len(folding)]
        previous = cp
        pool += decomposition + folding

    version = unicodedata.unidata_version
    swift = f"""// GENERATED FILE, do not edit. Unicode {version}, from Python {sys.version.split()[0]}'s unicodedata.
// Regenerate from the package root with:  python3 Scripts/generate-unicode-tables.py
// The script's doc string describes the layout and the encoding; `UnicodeProperties` decodes it.

/// The Unicode data of tokenization (SPEC.md, "Tokens"), encoded compactly so that it compiles fast and costs
/// nothing until first used; `UnicodeProperties` decodes it.
enum UnicodeTables {{
    /// The Unicode version these tables follow.
    static let unicodeVersion = "{version}"
    /// log2 of the number of code points per block of the two-stage table.
    static let blockShift = {BLOCK_SHIFT}
    /// Number of distinct blocks.
    static let blockCount = {len(block_words)}
    /// Number of mapping records (they are numbered from 1).
    static let recordCount = {len(mappings)}
    /// Number of scalars in all decompositions and foldings together.
    static let poolCount = {len(pool)}

"""
    swift += literal("blockIndexRuns", "Pairs (run length, block number) covering `0x110000 >> blockShift` entries.",
                     encode(index_stream)) + "\n"
    swift += literal("blockRuns", "Per block: pairs (run length, property word without record bits).",
                     encode(block_stream)) + "\n"
    swift += literal("records", "Per record: code-point delta, decomposition length << 2 | folding length.",
                     encode(record_stream)) + "\n"
    swift += literal("pool", "Every record's decomposition and folding, 4 characters per scalar.",
                     encode_fixed_width(pool))
    swift += "}\n"
    with open(OUTPUT, "w", encoding="utf-8", newline="\n") as f:
        f.write(swift)
    print(f"wrote {os.path.normpath(OUTPUT)}: {len(swift.encode())} bytes, Unicode {version}, "
          f"{len(block_words)} blocks, {len(mappings)} records, {len(pool)} pooled scalars")


if __name__ == "__main__":
    main()

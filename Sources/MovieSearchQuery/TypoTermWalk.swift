@_spi(Engine) import MovieSearchIndex
import MovieSearchLRU

/// The terms a query token matches with typos (SPEC.md, "Typos"), found by walking the trie of the
/// terms that begin with the token's first scalar (`TypoTrie`) with the optimal-string-alignment automaton, as
/// ranges of term ids each with its prefix distance.
///
/// Only the terms that begin with the token's first scalar can match, and they form one range of the dictionary.
/// The walk goes through their trie in preorder, one row of the alignment per node, computed from the row of its
/// parent (bit-parallel, `AlignmentRows.walkTrie(of:_:maximumDepth:budget:into:)`). As soon as a node's rows show
/// that no term below it can lower its distance (the row minimum has passed the budget, the distance is already as
/// low as it can get, or the subtree's terms are too short to take in the rest of the token), every term under it
/// has the same distance: the whole subtree is one range, and the walk jumps past it. So the cost follows the
/// prefixes within the budget's reach, one row each.
///
/// The trie of a letter is built on the letter's second walk; its first walk goes through the sorted terms
/// (`SortedTermWalk`), with the same answer.
struct TypoTermWalk {
    let dictionary: TermDictionary
    /// The tries of the buckets walked so far, by first scalar (`MovieIndex.typoTries`), and the first scalars
    /// walked once without one (`MovieIndex.typoLettersWalked`).
    let tries: SynchronizedLRUCache<UInt32, TypoTrie>
    let lettersWalked: SynchronizedLRUCache<UInt32, Bool>

    /// The term ranges that `token` (its scalars and UTF-8 bytes) matches within `budget` edits (at least 1),
    /// disjoint and ascending, each with the prefix distance of all its terms. A subtree stays one range, not
    /// joined with its neighbours, so that its stored prefix set answers for it.
    func matches(of token: [UInt32], bytes: UnsafeBufferPointer<UInt8>, budget: Int) throws(CacheError)
        -> [(terms: Range<Int>, distance: Int)]
    {
        var firstLength = 1
        while firstLength < bytes.count, bytes[firstLength] & 0xC0 == 0x80 { firstLength += 1 }
        // A letter's first walk goes through its sorted terms: building the trie costs several such walks, which
        // a process that answers one query would never win back. Its second walk builds the trie.
        let trie: TypoTrie
        if let built = tries.get(token[0]) {
            trie = built
        } else if lettersWalked.get(token[0]) == nil {
            lettersWalked.add(true, forKey: token[0])
            return try SortedTermWalk(dictionary: dictionary).matches(of: token, bytes: bytes, budget: budget)
        } else {
            trie = try tries.value(forKey: token[0]) { () throws(CacheError) -> TypoTrie in
                let bucket = try dictionary.range(ofPrefix: UnsafeBufferPointer(rebasing: bytes[..<firstLength]))
                return try TypoTrie(texts: try dictionary.texts(of: bucket))
            }
        }
        var found: [(terms: Range<Int>, distance: Int)] = []
        found.reserveCapacity(16)
        trie.nodes.withUnsafeBufferPointer { nodes in
            // One loop per budget the spec has, so that the rows' masks and widths are constants in each.
            if token.count <= AlignmentRows.maskedLength {
                let depth = trie.maximumDepth
                switch budget {
                case 1: AlignmentRows.walkTrieWithBudget1(of: token, nodes, maximumDepth: depth, into: &found)
                case 2: AlignmentRows.walkTrieWithBudget2(of: token, nodes, maximumDepth: depth, into: &found)
                default: AlignmentRows.walkTrie(of: token, nodes, maximumDepth: depth, budget: budget, into: &found)
                }
                return
            }
            // A longer token: the band rows, pushed node by node.
            var rows = AlignmentRows(query: token, budget: budget)
            switch budget {
            case 1: Self.walk(nodes, &rows, budget: 1, into: &found)
            case 2: Self.walk(nodes, &rows, budget: 2, into: &found)
            default: Self.walk(nodes, &rows, budget: budget, into: &found)
            }
        }
        return found
    }

    /// The walk of `nodes` (a trie's, its sentinel last) with `rows` (of this `budget`, holding row 0).
    @inline(__always)
    private static func walk(_ nodes: UnsafeBufferPointer<TypoTrie.Node>, _ rows: inout AlignmentRows, budget: Int,
                             into found: inout [(terms: Range<Int>, distance: Int)]) {
        // The last node is the sentinel: it ends the walk and gives the last subtree's end.
        let count = nodes.count - 1
        var node = 0
        while node < count {
            let entry = nodes[node]
            rows.pop(to: Int(entry.depth) - 1)
            rows.push(entry.label, budget: budget)
            let end = Int(entry.end)  // after `node`, at most `count`: the trie is built so
            if !rows.canImprove(within: Int(entry.height), budget: budget) {
                // Settled: every term below has this distance (or none is within the budget).
                if rows.prefixDistance <= budget {
                    found.append((Int(entry.termLow)..<Int(nodes[end].termLow), rows.prefixDistance))
                }
                node = end
                continue
            }
            // A term ends here when the next node in preorder starts a later one.
            if rows.prefixDistance <= budget, nodes[node + 1].termLow != entry.termLow {
                found.append((Int(entry.termLow)..<(Int(entry.termLow) + 1), rows.prefixDistance))
            }
            node += 1
        }
    }
}

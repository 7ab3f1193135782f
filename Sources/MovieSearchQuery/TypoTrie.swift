@_spi(Engine) import MovieSearchIndex

/// The terms that begin with one first byte sequence (a bucket of the sorted dictionary), as a trie over their
/// Unicode scalars, laid out in preorder for the typo walk (`TypoTermWalk`).
///
///     node:  label (a scalar), depth (scalars from the start of the term), end (the first node after its subtree),
///            termLow (the first term of its subtree), height (the most scalars any term of its subtree has below it)
///
/// The terms of a node's subtree are the ids `termLow(v) ..< termLow(end(v))` (terms sorted by bytes are sorted by
/// scalars, so a subtree is one range), and a term ends at `v` exactly when the next node in preorder starts a later
/// term. A node's row of the alignment is computed from its parent's, which is the last node met at depth − 1: the
/// walk keeps one row per depth and never looks a node's parent up. Skipping a subtree is one jump to `end`, with no
/// term byte read, and `height` bounds how many scalars a subtree can still offer a query (a 10-scalar query cannot
/// be matched within 2 edits by a term of 7 scalars or fewer).
///
/// Built from the bucket's terms on the letter's second typo walk (`TypoTermWalk`) and kept by `MovieIndex`
/// (`typoTries`): one pass over the terms, O(total scalars), about 20 bytes a node (a letter of the century catalog
/// has a few thousand nodes, one of the generated 1M catalog some tens of thousands). Nothing of it is stored in the cache file.
final class TypoTrie: Sendable {
    /// One node; `end` and `termLow` index `nodes` and the dictionary.
    struct Node {
        var label: UInt32
        var depth: UInt32
        var end: UInt32
        var termLow: UInt32
        var height: UInt32
    }

    /// The nodes in preorder, then one sentinel whose `termLow` is the bucket's end.
    let nodes: [Node]
    /// The largest `depth` of a node (0 for a trie of no terms): the rows a walk keeps.
    let maximumDepth: Int

    /// The trie of the terms `texts` holds (one bucket, in dictionary order).
    ///
    /// One pass over the terms: each term is read from where it leaves the open path (the nodes of the term
    /// before), the nodes deeper than that are closed (their end set, their height passed to their parent), and
    /// a node is opened for each scalar of the rest. Every node takes at least one byte of term text, so the
    /// bucket's text length bounds the node count, and the work is done in buffers of that size, without the
    /// checks of growing arrays (a walk of a letter of a million titles builds tens of thousands of nodes).
    init(texts: TermDictionary.Texts) throws(CacheError) {
        let first = texts.ids.lowerBound, last = texts.ids.upperBound
        let textLength = first < last ? texts.start(of: last) - texts.start(of: first) : 0
        // Checked once here, so that a damaged offset cannot make the buffers below too small.
        _ = try texts.bytes(from: first < last ? texts.start(of: first) : 0, to: first < last ? texts.start(of: last) : 0)
        let capacity = max(textLength, 0) + 1
        var result: Result<Void, CacheError> = .success(())
        var deepest = 0
        let built = [Node](unsafeUninitializedCapacity: capacity) { nodes, count in
            // The open path: node indices by depth − 1, and the scalars they spell (at most one per text byte).
            let path = UnsafeMutablePointer<Int>.allocate(capacity: capacity)
            let scalars = UnsafeMutablePointer<UInt32>.allocate(capacity: capacity)
            defer {
                path.deallocate()
                scalars.deallocate()
            }
            var open = 0, made = 0
            /// Closes the open nodes deeper than `depth`.
            func close(to depth: Int) {
                while open > depth {
                    open -= 1
                    let node = path[open]
                    nodes[node].end = UInt32(truncatingIfNeeded: made)
                    if open > 0 {
                        let parent = path[open - 1]
                        nodes[parent].height = max(nodes[parent].height, nodes[node].height &+ 1)
                    }
                }
            }
            var term = first
            var start = first < last ? texts.start(of: first) : 0
            while term < last {
                let end = texts.start(of: term + 1)
                let text: UnsafeRawBufferPointer
                do throws(CacheError) {
                    text = try texts.bytes(from: start, to: end)
                } catch {
                    result = .failure(error)
                    break
                }
                start = end
                var offset = 0, depth = 0
                // Follow the open path as far as this term agrees with it.
                while depth < open, offset < text.count {
                    let (scalar, next) = Self.scalar(in: text, at: offset)
                    if scalar != scalars[depth] { break }
                    offset = next
                    depth += 1
                }
                close(to: depth)
                // Each node below takes at least one byte of the bucket's text: `made` stays below `capacity`.
                while offset < text.count, made < capacity - 1 {
                    let (scalar, next) = Self.scalar(in: text, at: offset)
                    offset = next
                    path[open] = made
                    scalars[open] = scalar
                    open += 1
                    (nodes.baseAddress! + made).initialize(to: Node(
                        label: scalar, depth: UInt32(truncatingIfNeeded: open), end: 0,
                        termLow: UInt32(truncatingIfNeeded: term), height: 0))
                    made += 1
                }
                deepest = max(deepest, open)
                term += 1
            }
            close(to: 0)
            (nodes.baseAddress! + made).initialize(to: Node(label: 0, depth: 0, end: 0,
                                                            termLow: UInt32(truncatingIfNeeded: last), height: 0))
            count = made + 1
        }
        if case .failure(let error) = result { throw error }
        maximumDepth = deepest
        // Kept at its size: the text bound is a few times the node count.
        nodes = [Node](unsafeUninitializedCapacity: built.count) { nodes, count in
            built.withUnsafeBufferPointer { built in
                _ = nodes.initialize(fromContentsOf: built)
            }
            count = built.count
        }
    }

    /// The scalar at byte `offset` of a term and the offset after it. Terms are valid UTF-8 (the writer stores
    /// tokens); in a damaged file a stray byte stands for itself, offset past the scalar range so that it never
    /// equals a query scalar, and nothing is read out of bounds.
    @inline(__always)
    static func scalar(in text: UnsafeRawBufferPointer, at offset: Int) -> (UInt32, Int) {
        let lead = text[offset]
        if lead < 0x80 { return (UInt32(lead), offset + 1) }
        let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 0
        guard length > 0, offset + length <= text.count else { return (0x110000 + UInt32(lead), offset + 1) }
        var scalar = UInt32(lead) & (0x7F >> length)
        for position in (offset + 1)..<(offset + length) {
            let continuation = text[position]
            guard continuation & 0xC0 == 0x80 else { return (0x110000 + UInt32(lead), offset + 1) }
            scalar = scalar << 6 | UInt32(continuation & 0x3F)
        }
        return (scalar, offset + length)
    }
}

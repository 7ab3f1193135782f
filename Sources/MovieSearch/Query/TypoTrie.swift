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
/// Built from the bucket's terms on first use and kept by `MovieIndex` (`typoTries`): one pass over the terms,
/// O(total scalars), about 20 bytes a node. Nothing of it is stored in the cache file.
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

    /// The trie of the terms `texts` holds (one bucket, in dictionary order).
    init(texts: TermDictionary.Texts) throws(CacheError) {
        var nodes: [Node] = []
        nodes.reserveCapacity(texts.ids.count * 3)
        // The open path: node indices by depth − 1, and the scalars they spell.
        var path: [Int] = []
        var scalars: [UInt32] = []
        var term = texts.ids.lowerBound
        var start = texts.start(of: term)
        while term < texts.ids.upperBound {
            let end = texts.start(of: term + 1)
            let text = try texts.bytes(from: start, to: end)
            start = end
            var offset = 0, depth = 0
            // Follow the open path as far as this term agrees with it.
            while depth < scalars.count, offset < text.count {
                let (scalar, next) = Self.scalar(in: text, at: offset)
                if scalar != scalars[depth] { break }
                offset = next
                depth += 1
            }
            Self.close(&nodes, &path, &scalars, to: depth)
            while offset < text.count {
                let (scalar, next) = Self.scalar(in: text, at: offset)
                offset = next
                path.append(nodes.count)
                scalars.append(scalar)
                nodes.append(Node(label: scalar, depth: UInt32(truncatingIfNeeded: scalars.count), end: 0,
                                  termLow: UInt32(truncatingIfNeeded: term), height: 0))
            }
            term += 1
        }
        Self.close(&nodes, &path, &scalars, to: 0)
        nodes.append(Node(label: 0, depth: 0, end: 0, termLow: UInt32(truncatingIfNeeded: texts.ids.upperBound),
                          height: 0))
        self.nodes = nodes
    }

    /// Closes the open nodes deeper than `depth`: sets their end, and passes their height up to their parent.
    private static func close(_ nodes: inout [Node], _ path: inout [Int], _ scalars: inout [UInt32], to depth: Int) {
        while path.count > depth {
            let node = path.removeLast()
            scalars.removeLast()
            nodes[node].end = UInt32(truncatingIfNeeded: nodes.count)
            if let parent = path.last {
                nodes[parent].height = max(nodes[parent].height, nodes[node].height + 1)
            }
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

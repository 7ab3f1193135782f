import MovieSearchPlatform
import Synchronization

/// The last inflated blocks of one compressed text column (`CompressedTextColumn`), kept so that an answer's movies
/// do not inflate the same block again and again.
///
/// An answer lists up to K movies a year, each with its title, its name list and its names, each in a block of 64
/// texts deflated on its own: without this, a one-letter search of the century catalog (some 600 movies) inflated
/// thousands of blocks, most of them the same few (the common genres' names, neighbouring ids of one year), and
/// `query --stdin --json` spent 70 % of its time in `inflate`. Direct-mapped (block `n` in slot `n % capacity`), as a
/// CPU's cache is: a look-up is one lock and one comparison, and a block pushed out is only inflated again. Shared by
/// every thread that reads the opened cache (the lock annotated for Thread Sanitizer, which cannot see a `Mutex` on
/// Linux by itself); the blocks are immutable values, so a reader keeps its block after the lock is released. The
/// slots are made at the first block kept: opening a cache allocates nothing here.
final class TextBlockCache: Sendable {
    /// Slots for a column of short texts (titles, name lists, names, original titles, poster paths, IMDb ids: a
    /// block inflates to 1–2 KB): 1,024 blocks of 64 texts, some 2 MB at most. The century catalog's titles fill 567
    /// blocks.
    static let shortTexts = 1_024
    /// Slots for the overviews (a block inflates to some 20 KB): 64 blocks, about 1.3 MB at most.
    static let longTexts = 64

    private let capacity: Int
    private let slots = Mutex<[CompressedTextColumn.Block?]>([])

    /// A cache of `capacity` blocks.
    init(capacity: Int) {
        precondition(capacity > 0)
        self.capacity = capacity
    }

    /// The block numbered `number`, if it is still held.
    func block(_ number: Int) -> CompressedTextColumn.Block? {
        slots.withAnnotatedLock(owner: self) { slots in
            guard !slots.isEmpty, let block = slots[number % capacity], block.number == number else { return nil }
            return block
        }
    }

    /// Keeps `block`, in place of the one in its slot.
    func keep(_ block: CompressedTextColumn.Block) {
        slots.withAnnotatedLock(owner: self) { slots in
            if slots.isEmpty { slots = Array(repeating: nil, count: capacity) }
            slots[block.number % capacity] = block
        }
    }
}

/// A small deterministic random number generator (SplitMix64), so that random and mutation tests and generated
/// catalogs repeat exactly, on every run and every machine.
package struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    package init(seed: UInt64) { state = seed }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound` (by remainder: slightly biased, which no test minds, and the same everywhere).
    package mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

    /// A number in `0..<1`.
    package mutating func unit() -> Double { Double(next() >> 11) / Double(UInt64(1) << 53) }
}

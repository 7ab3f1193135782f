extension Duration {
    /// The duration in whole nanoseconds (the figures of `index` and `bench`): 0 for a negative duration, which a
    /// difference of two `ContinuousClock` readings, earlier from later, never is.
    var wholeNanoseconds: UInt64 {
        let (seconds, attoseconds) = components
        guard seconds >= 0, attoseconds >= 0 else { return 0 }
        return UInt64(seconds) * 1_000_000_000 + UInt64(attoseconds / 1_000_000_000)
    }
}

/// How long an HTTP GET may take and how much it may bring back.
///
///     let limits = FetchLimits.flickr    // 3 s to connect, 10 s in all, 1 MiB
public struct FetchLimits: Sendable, Equatable {
    /// Milliseconds to open the connection (TCP and TLS).
    public var connectMilliseconds: Int
    /// Milliseconds for the whole exchange, connection included.
    public var totalMilliseconds: Int
    /// The most bytes of body accepted; one more is `FetchFailure.tooLarge`.
    public var maximumBytes: Int

    /// Limits from their parts.
    public init(connectMilliseconds: Int, totalMilliseconds: Int, maximumBytes: Int) {
        self.connectMilliseconds = connectMilliseconds
        self.totalMilliseconds = totalMilliseconds
        self.maximumBytes = maximumBytes
    }

    /// The total limit as a person reads it: `10 s`, `700 ms`.
    public var totalDescription: String {
        totalMilliseconds % 1000 == 0 ? "\(totalMilliseconds / 1000) s" : "\(totalMilliseconds) ms"
    }

    /// Flickr's: connect within 3 s, the whole answer within 10 s, at most 1 MiB (ten photos' answer is about
    /// 3 KB; a page of 500 about 100 KB).
    public static let flickr = FetchLimits(connectMilliseconds: 3_000, totalMilliseconds: 10_000,
                                           maximumBytes: FlickrPhotos.maximumResponseBytes)
}

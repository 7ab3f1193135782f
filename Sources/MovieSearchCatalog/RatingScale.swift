/// The scale a catalog's ratings are on: the most a rating can be, 5 (stars), 10 or 100 (a Metascore), the least
/// always 0. A cache records one for the users' ratings and one for the critics' (`index --rating-scale`), so that
/// every output shows a rating on it: `4/5`, `7.8/10`, `78/100`.
public enum RatingScale: Int, Sendable, CaseIterable, Comparable {
    case five = 5
    case ten = 10
    case hundred = 100

    /// The scale of ratings whose largest is `largest` (`nil`: no rating): the smallest of 5, 10 and 100 that it
    /// does not exceed, or `nil` when it exceeds 100 (the ratings are on no scale this knows, and are shown as they
    /// are). A catalog of whole ratings from 1 to 5 is on 5, one with a 7.5 on 10, one with an 87 on 100.
    public static func smallest(fitting largest: Double?) -> RatingScale? {
        guard let largest else { return .five }
        return allCases.first { largest <= Double($0.rawValue) }
    }

    /// The largest rating on the scale.
    public var maximum: Double { Double(rawValue) }

    /// Whether `rating` is on the scale, that is does not exceed its maximum (ratings below 0 are allowed: a
    /// catalog's ratings are any finite number).
    public func holds(_ rating: Double) -> Bool { rating <= maximum }

    public static func < (left: RatingScale, right: RatingScale) -> Bool { left.rawValue < right.rawValue }
}

/// A catalog's two rating scales: the users' ratings' and the critics' (`Movie.rating`, `Movie.criticRating`), each
/// `nil` when its ratings are on none (a rating above 100).
public struct RatingScales: Sendable, Hashable {
    /// The scale of the users' ratings.
    public var rating: RatingScale?
    /// The scale of the critics' ratings.
    public var critic: RatingScale?

    /// Creates the pair from its two scales.
    public init(rating: RatingScale?, critic: RatingScale?) {
        self.rating = rating
        self.critic = critic
    }

    /// The scales of a catalog whose scales are not known: 10 for both, what every output assumed before caches
    /// recorded them (for tests and for movies made in memory).
    public static let tenPoint = RatingScales(rating: .ten, critic: .ten)
}

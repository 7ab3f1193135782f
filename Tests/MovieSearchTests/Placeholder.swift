final class PlaceholderTests {}

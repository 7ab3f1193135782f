final class PlaceholderCLITests {}

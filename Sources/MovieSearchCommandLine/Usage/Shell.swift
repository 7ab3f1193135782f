/// A shell that `moviesearch completions` writes a completion script for.
package enum Shell: String, ArgumentChoice {
    case bash, zsh, fish
}

import MovieSearchOutput

/// Measuring and cutting a line in terminal columns (`DisplayWidth`), so that a renderer can build a line from runs
/// and then make sure it fits.
extension ScreenLine {
    /// The columns the line takes.
    var columns: Int { runs.reduce(0) { $0 + DisplayWidth.columns(of: $1.text) } }

    /// The line cut to at most `columns` columns: unchanged when it fits, else the runs up to the cut, the one cut
    /// ending in `…` (in its own style), never cutting inside a grapheme cluster. Empty when `columns` is 0 or less.
    func fitted(toColumns columns: Int) -> ScreenLine {
        guard columns > 0 else { return ScreenLine() }
        guard self.columns > columns else { return self }
        var result = ScreenLine()
        var width = 0
        for run in runs {
            let runWidth = DisplayWidth.columns(of: run.text)
            if width + runWidth <= columns - 1 {
                result.append(run.text, run.style)
                width += runWidth
                continue
            }
            result.append(DisplayWidth.prefix(run.text, columns: columns - 1 - width), run.style)
            result.append(DisplayWidth.ellipsis, run.style)
            break
        }
        return result
    }

    /// The line with `style`'s reverse video added to every run and spaces after it up to `columns`: how the
    /// selected row is drawn, as a bar across the screen.
    func selected(toColumns columns: Int) -> ScreenLine {
        var result = ScreenLine(runs.map { run in
            var style = run.style
            style.reverse = true
            return Run(run.text, style)
        })
        let width = self.columns
        if width < columns {
            var style = TextStyle()
            style.reverse = true
            result.append(String(repeating: " ", count: columns - width), style)
        }
        return result
    }
}

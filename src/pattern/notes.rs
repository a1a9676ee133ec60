//! Warnings a lenient reader gathers while it repairs or skips what Golly would also accept:
//! each names where (1-based line and column, as errors do), and a kind of thing met many
//! times (characters a reader ignores) is said once, at its first place, with a count.

/// A kind of skipped thing, first seen at `line`, `column`.
struct Skipped {
    line: usize,
    column: usize,
    what: String,
    why: &'static str,
    count: u64,
}

/// The warnings of one read, in the order they were first met.
#[derive(Default)]
pub(super) struct Notes {
    /// Finished warnings, and the place of each kind of skip among them.
    items: Vec<Result<String, usize>>,
    skipped: Vec<Skipped>,
}

impl Notes {
    /// A warning about line `line`, column `column`.
    pub fn at(&mut self, line: usize, column: usize, message: impl std::fmt::Display) {
        self.items
            .push(Ok(format!("line {line}, column {column}: {message}")));
    }

    /// A warning about line `line` as a whole.
    pub fn line(&mut self, line: usize, message: impl std::fmt::Display) {
        self.items.push(Ok(format!("line {line}: {message}")));
    }

    /// A warning about the file as a whole.
    pub fn file(&mut self, message: impl Into<String>) {
        self.items.push(Ok(message.into()));
    }

    /// `what` (quoted text) skipped at `line`, `column` for the reason `why`; the
    /// warning is said once per reason, at the first place, with how many there were.
    pub fn skip(&mut self, line: usize, column: usize, what: &str, why: &'static str) {
        if let Some(s) = self.skipped.iter_mut().find(|s| s.why == why) {
            s.count += 1;
            return;
        }
        self.items.push(Err(self.skipped.len()));
        self.skipped.push(Skipped {
            line,
            column,
            what: what.to_string(),
            why,
            count: 1,
        });
    }

    /// The warnings, for [`super::Pattern::warnings`].
    pub fn into_warnings(self) -> Vec<String> {
        let skipped = self.skipped;
        self.items
            .into_iter()
            .map(|item| match item {
                Ok(text) => text,
                Err(i) => {
                    let s = &skipped[i];
                    let more = match s.count {
                        1 => String::new(),
                        n => format!(" ({n} times in all)"),
                    };
                    format!(
                        "line {}, column {}: {} {}{more}",
                        s.line, s.column, s.what, s.why
                    )
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn skips_are_said_once_in_order_with_a_count() {
        let mut notes = Notes::default();
        notes.skip(2, 3, "'z'", "is ignored");
        notes.line(4, "no header");
        notes.skip(5, 1, "'%'", "is ignored");
        notes.at(6, 2, "odd");
        notes.file("whole");
        assert_eq!(
            notes.into_warnings(),
            [
                "line 2, column 3: 'z' is ignored (2 times in all)",
                "line 4: no header",
                "line 6, column 2: odd",
                "whole"
            ]
        );
    }
}

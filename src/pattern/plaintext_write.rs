//! The plaintext (`.cells`) writer (the reader is in `plaintext.rs`).

use super::Pattern;
use super::plaintext::strip_prefix_ci;
use super::rle_write::one_line;

impl Pattern {
    /// Plaintext (`.cells`) text: `!Name:`/`!Author:`/`!Rule:` and `!` comment lines, then
    /// every row in full (`.` dead, `O` alive), so the box size survives a round trip.
    pub fn to_plaintext(&self) -> String {
        let (pattern, cells) = (self, &*self.clean_cells());
        let mut out = String::new();
        // A comment that starts like a tag stays a comment if the tag comes first, even
        // empty: the reader takes only a tag's first line.
        let looks_tagged = |tag: &str| {
            pattern
                .comments
                .iter()
                .flat_map(|c| c.lines())
                .any(|l| strip_prefix_ci(l.trim(), tag).is_some())
        };
        for (tag, text) in [("Name", &pattern.name), ("Author", &pattern.author)] {
            let text = one_line(text.as_deref().unwrap_or_default());
            if !text.is_empty() {
                out.push_str(&format!("!{tag}: {text}\n"));
            } else if looks_tagged(&format!("{tag}:")) {
                out.push_str(&format!("!{tag}:\n"));
            }
        }
        if let Some(rule) = pattern.rule {
            out.push_str(&format!("!Rule: {rule}\n"));
        } else if looks_tagged("Rule:") {
            out.push_str("!Rule:\n");
        }
        for line in pattern
            .comments
            .iter()
            .flat_map(|c| c.lines())
            .map(str::trim)
            .filter(|l| !l.is_empty())
        {
            out.push_str(&format!("!{line}\n"));
        }
        if pattern.width == 0 || pattern.height == 0 {
            if out.is_empty() {
                out.push_str("!\n"); // an empty pattern still needs some text to be a file
            }
            return out;
        }
        let mut next = cells.iter().peekable();
        out.reserve((pattern.width as usize + 1) * pattern.height as usize);
        for y in 0..pattern.height {
            for x in 0..pattern.width {
                out.push(if next.next_if(|&&c| c == (x, y)).is_some() {
                    'O'
                } else {
                    '.'
                });
            }
            out.push('\n');
        }
        out
    }
}

//! A `.rule` file split into its sections (Golly's help, "File formats › .rule"): `@RULE
//! name` and the description after it, then `@TABLE` or `@TREE`, `@COLORS`, `@NAMES` and
//! `@ICONS` (read for nothing yet: golab draws cells as squares of the `@COLORS` colours).
//! Unknown sections are skipped, as Golly skips them. Line numbers are kept for errors.

use super::colors::{default_colors, read_colors, read_names};
use super::{RuleTable, TableError, compile, transitions, tree};

/// A `.rule` file's sections, each as its lines with 1-based numbers.
#[derive(Debug, Clone, Default)]
pub struct RuleFile<'a> {
    /// The `@RULE` name.
    pub name: String,
    /// Line of the `@RULE` header.
    pub name_line: usize,
    /// Lines between `@RULE` and the next section.
    pub description: Vec<(usize, &'a str)>,
    /// `@TABLE` lines, if the file has the section.
    pub table: Option<Vec<(usize, &'a str)>>,
    /// `@TREE` lines, if the file has the section.
    pub tree: Option<Vec<(usize, &'a str)>>,
    /// `@COLORS` lines.
    pub colors: Vec<(usize, &'a str)>,
    /// `@NAMES` lines.
    pub names: Vec<(usize, &'a str)>,
}

/// The most bytes a `.rule` file may have: the largest of Golly's is under 3 MB.
pub const MAX_RULE_BYTES: usize = 64 << 20;

impl<'a> RuleFile<'a> {
    /// Split `text` into sections; the first non-blank line must be `@RULE name`.
    pub fn parse(text: &'a str) -> Result<RuleFile<'a>, TableError> {
        if text.len() > MAX_RULE_BYTES {
            return Err(TableError::at(
                0,
                0,
                format!(
                    "the file has {} bytes, beyond golab's limit of {} MiB",
                    text.len(),
                    MAX_RULE_BYTES >> 20
                ),
            ));
        }
        let mut file = RuleFile::default();
        let mut section: Option<&str> = None;
        for (i, line) in text.lines().enumerate() {
            let number = i + 1;
            let trimmed = line.trim();
            if let Some(header) = trimmed.strip_prefix('@') {
                let (key, rest) = header
                    .split_once(char::is_whitespace)
                    .unwrap_or((header, ""));
                match key {
                    "RULE" => {
                        if !file.name.is_empty() {
                            return Err(TableError::at(number, 1, "a second @RULE section"));
                        }
                        let name = rest.trim();
                        if name.is_empty() {
                            return Err(TableError::at(number, 6, "@RULE needs the rule's name"));
                        }
                        if name.contains(char::is_whitespace) || name.contains(':') {
                            return Err(TableError::at(
                                number,
                                7,
                                format!("a rule name has no spaces or colons: '{name}'"),
                            ));
                        }
                        file.name = name.to_string();
                        file.name_line = number;
                    }
                    "TABLE" if file.table.is_some() => {
                        return Err(TableError::at(number, 1, "a second @TABLE section"));
                    }
                    "TREE" if file.tree.is_some() => {
                        return Err(TableError::at(number, 1, "a second @TREE section"));
                    }
                    "TABLE" => file.table = Some(Vec::new()),
                    "TREE" => file.tree = Some(Vec::new()),
                    _ => {}
                }
                if file.name.is_empty() {
                    return Err(TableError::at(
                        number,
                        1,
                        "a .rule file starts with '@RULE name'",
                    ));
                }
                section = Some(match key {
                    "RULE" | "TABLE" | "TREE" | "COLORS" | "NAMES" => key,
                    _ => "skip",
                });
                continue;
            }
            let target = match section {
                None if trimmed.is_empty() => continue,
                None => {
                    return Err(TableError::at(
                        number,
                        1,
                        "a .rule file starts with '@RULE name'",
                    ));
                }
                Some("RULE") => &mut file.description,
                Some("TABLE") => file.table.as_mut().expect("opened"),
                Some("TREE") => file.tree.as_mut().expect("opened"),
                Some("COLORS") => &mut file.colors,
                Some("NAMES") => &mut file.names,
                Some(_) => continue,
            };
            target.push((number, line));
        }
        if file.name.is_empty() {
            return Err(TableError::at(0, 0, "no @RULE section"));
        }
        Ok(file)
    }

    /// Compile the table (preferred, as Golly reads the first of the two) or the tree.
    pub fn compile(&self) -> Result<RuleTable, TableError> {
        let (tree, source) = match (&self.table, &self.tree) {
            (Some(lines), _) => {
                let spec = transitions::read_table(lines)?;
                let tree = compile::compile(&spec).map_err(|e| TableError {
                    line: self.name_line,
                    ..e
                })?;
                let source = format!(
                    "@TABLE, {} neighbourhood, {} symmetries",
                    spec.neighbourhood.keyword(),
                    spec.symmetry
                );
                (tree, source)
            }
            (None, Some(lines)) => {
                let tree = tree::read_tree(lines)?;
                let source = format!("@TREE, {} neighbours", tree.neighbours());
                (tree, source)
            }
            (None, None) => {
                return Err(TableError::at(
                    self.name_line,
                    1,
                    "no @TABLE or @TREE section",
                ));
            }
        };
        let mut colors = default_colors(tree.states());
        read_colors(&self.colors, &mut colors);
        let mut names: Vec<String> = (0..tree.states()).map(|s| format!("state {s}")).collect();
        read_names(&self.names, &mut names);
        let description = self
            .description
            .iter()
            .map(|(_, l)| l.trim_end())
            .collect::<Vec<_>>()
            .join("\n")
            .trim()
            .to_string();
        Ok(RuleTable {
            name: self.name.clone(),
            description,
            tree,
            colors,
            names,
            source,
        })
    }
}

//! Finding rule files the way Golly does (its `ruleloaderalgo`): a rule named `Name` is
//! the file `Name.rule` (with `/` and `\` in the name read as `_`), looked for in the
//! user's rules folder, then in the supplied rules: golab's bundled rules and an installed
//! Golly's `Rules` folder. A file in the user's folder without `@TABLE` or `@TREE`
//! (colours only) falls through to the supplied rule of that name, as in Golly.
//!
//! The folders are one typed value, [`RuleFolders`], installed once by the app or the CLI
//! from its settings ([`install`]); everything that parses rule text then finds them.

use std::path::{Path, PathBuf};
use std::sync::RwLock;

use super::{RuleTable, TableError, TableId, by_name, intern};

/// Where rule files are looked for, in order.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct RuleFolders {
    /// The user's own rules (a setting; Golly's "Your rules" folder).
    pub user: Option<PathBuf>,
    /// Golly's `Rules` folders to read (found where installations put them, or named).
    pub golly: Vec<PathBuf>,
}

impl RuleFolders {
    /// The user's folder if given (else Golly's own user rules folder, where a Golly user
    /// keeps theirs: [`crate::golly::user_rules`]), and the `Rules` folder of every Golly
    /// installation found ([`crate::golly::installations`]) after those of `golly_roots`
    /// (installations named in the settings).
    pub fn detect_with(user: Option<PathBuf>, golly_roots: &[PathBuf]) -> Self {
        let named = golly_roots.iter().map(|r| r.join("Rules"));
        let found = crate::golly::installations().into_iter().map(|i| i.rules());
        let mut golly: Vec<PathBuf> = Vec::new();
        for rules in named.chain(found).filter(|p| p.is_dir()) {
            if !golly.contains(&rules) {
                golly.push(rules);
            }
        }
        RuleFolders {
            user: user.or_else(crate::golly::user_rules),
            golly,
        }
    }

    /// [`RuleFolders::detect_with`] without named installations.
    pub fn detect(user: Option<PathBuf>) -> Self {
        RuleFolders::detect_with(user, &[])
    }

    /// The folders in search order, for messages.
    pub fn describe(&self) -> String {
        let mut parts: Vec<String> = self.user.iter().map(|p| p.display().to_string()).collect();
        parts.push("golab's bundled rules".into());
        parts.extend(self.golly.iter().map(|p| p.display().to_string()));
        parts.join(", ")
    }
}

static FOLDERS: RwLock<Option<RuleFolders>> = RwLock::new(None);

/// Install the folders rule names are looked up in (the app and CLI call this once at
/// start from their settings; until then [`RuleFolders::detect`] without a user folder).
pub fn install(folders: RuleFolders) {
    *FOLDERS.write().unwrap_or_else(|e| e.into_inner()) = Some(folders);
}

/// The installed folders.
pub fn folders() -> RuleFolders {
    let mut guard = FOLDERS.write().unwrap_or_else(|e| e.into_inner());
    guard
        .get_or_insert_with(|| RuleFolders::detect(None))
        .clone()
}

/// Rules golab ships, written from their published definitions (see `rules/README.md`).
pub const BUNDLED: &[(&str, &str)] = &[
    ("WireWorld", include_str!("../../../rules/WireWorld.rule")),
    (
        "BriansBrain",
        include_str!("../../../rules/BriansBrain.rule"),
    ),
    (
        "LangtonsAnt",
        include_str!("../../../rules/LangtonsAnt.rule"),
    ),
    (
        "Turmite-RLLR",
        include_str!("../../../rules/Turmite-RLLR.rule"),
    ),
    (
        "BBM-Margolus",
        include_str!("../../../rules/BBM-Margolus.rule"),
    ),
    (
        "LangtonsLoops",
        include_str!("../../../rules/LangtonsLoops.rule"),
    ),
    ("BylsLoop", include_str!("../../../rules/BylsLoop.rule")),
    (
        "SayamasEvoloop",
        include_str!("../../../rules/SayamasEvoloop.rule"),
    ),
];

/// Why a rule could not be loaded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LoadError {
    /// No file of that name in any folder.
    NotFound(String),
    /// The file exists but is wrong: its path and where.
    Bad(String, TableError),
}

impl std::fmt::Display for LoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LoadError::NotFound(folders) => write!(f, "no such .rule file in {folders}"),
            LoadError::Bad(path, e) => write!(f, "{path}: {e}"),
        }
    }
}

/// The rule called `name`: already loaded, or read from the first folder that has it.
pub fn load(name: &str) -> Result<TableId, LoadError> {
    if let Some(id) = by_name(name) {
        return Ok(id);
    }
    load_from(name, &folders())
}

/// Read `name` from `folders` (and the bundled rules), register and return it.
pub fn load_from(name: &str, folders: &RuleFolders) -> Result<TableId, LoadError> {
    let file_name = format!("{}.rule", name.replace(['/', '\\'], "_"));
    if let Some(user) = &folders.user {
        match read(&user.join(&file_name)) {
            Some(Ok(table)) => return Ok(intern(table)),
            Some(Err(LoadError::Bad(_, e))) if e.message.starts_with("no @TABLE or @TREE") => {}
            Some(Err(e)) => return Err(e),
            None => {}
        }
    }
    if let Some((_, text)) = BUNDLED.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)) {
        return RuleTable::parse(text)
            .map(intern)
            .map_err(|e| LoadError::Bad(format!("bundled {name}.rule"), e));
    }
    for dir in &folders.golly {
        if let Some(result) = read(&dir.join(&file_name)) {
            return result.map(intern);
        }
    }
    Err(LoadError::NotFound(folders.describe()))
}

/// Read and compile one rule file; `None` when it does not exist.
pub fn read(path: &Path) -> Option<Result<RuleTable, LoadError>> {
    let bytes = std::fs::read(path).ok()?;
    let bad = |e| LoadError::Bad(path.display().to_string(), e);
    if bytes.len() > super::file::MAX_RULE_BYTES {
        return Some(Err(bad(TableError::at(
            0,
            0,
            "the file is larger than golab's limit for rule files",
        ))));
    }
    let text = String::from_utf8_lossy(&bytes);
    Some(RuleTable::parse(&text).map_err(bad))
}

/// The names of every rule the folders and the bundled rules offer (files `Name.rule`),
/// sorted, each once: what the rules menu lists.
pub fn available_names(folders: &RuleFolders) -> Vec<String> {
    let mut names: Vec<String> = BUNDLED.iter().map(|(n, _)| n.to_string()).collect();
    for dir in folders.user.iter().chain(&folders.golly) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            continue;
        };
        names.extend(entries.filter_map(|e| {
            let name = e.ok()?.file_name().into_string().ok()?;
            name.strip_suffix(".rule").map(str::to_string)
        }));
    }
    names.sort_by_key(|n| n.to_ascii_lowercase());
    names.dedup_by(|a, b| a.eq_ignore_ascii_case(b));
    names
}

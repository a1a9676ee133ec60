//! The pattern browser on the left, as Golly's left pane: recent files, Golly's Patterns
//! folder (found where Golly is installed, or named in the preferences), your own pattern
//! folders, and golab's bundled library. One click opens a pattern as Golly opens it (its
//! comments then show under Pattern info), a `.rule` file switches to that rule, a filter
//! finds files anywhere below.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::GolabApp;

/// Files the browser lists: what golab opens, and rule files.
const LISTED: &[&str] = &[
    "rle", "mc", "cells", "lif", "life", "txt", "mcl", "apg", "gz", "zip", "rule",
];

/// Most matches a filter lists.
const MATCHES: usize = 200;

/// The browser's state between frames: folder listings read once, and the filter.
#[derive(Default)]
pub struct Browser {
    listings: HashMap<PathBuf, Vec<PathBuf>>,
    /// Every listed file below each root, for the filter: walked off the UI thread on its
    /// first use (a big folder never stalls the window).
    index: HashMap<PathBuf, Index>,
    /// The filter typed.
    pub filter: String,
}

/// The files below one root: being walked, or walked.
enum Index {
    Walking(std::sync::mpsc::Receiver<Vec<PathBuf>>),
    Ready(Vec<PathBuf>),
}

impl Browser {
    /// Forget the listings (a folder added, removed or changed).
    pub fn refresh(&mut self) {
        self.listings.clear();
        self.index.clear();
    }

    /// The folders and listed files of `dir`, folders first, by name.
    fn listing(&mut self, dir: &Path) -> &[PathBuf] {
        self.listings.entry(dir.to_path_buf()).or_insert_with(|| {
            let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
                .map(|rd| rd.filter_map(|e| e.ok().map(|e| e.path())).collect())
                .unwrap_or_default();
            entries.retain(|p| !hidden(p) && (p.is_dir() || listed(p)));
            entries.sort_by_key(|p| (!p.is_dir(), name_of(p).to_ascii_lowercase()));
            entries
        })
    }

    /// Every listed file below `root`, or `None` while a thread still walks it.
    fn files_below(&mut self, root: &Path) -> Option<&[PathBuf]> {
        let index = self.index.entry(root.to_path_buf()).or_insert_with(|| {
            let (tx, rx) = std::sync::mpsc::channel();
            let root = root.to_path_buf();
            std::thread::spawn(move || {
                let _ = tx.send(walk(&root));
            });
            Index::Walking(rx)
        });
        if let Index::Walking(rx) = index {
            match rx.try_recv() {
                Ok(files) => *index = Index::Ready(files),
                Err(std::sync::mpsc::TryRecvError::Empty) => return None,
                Err(std::sync::mpsc::TryRecvError::Disconnected) => *index = Index::Ready(vec![]),
            }
        }
        match index {
            Index::Ready(files) => Some(files),
            Index::Walking(_) => None,
        }
    }
}

/// Most files, and most folders, one root's index reads.
const WALK_LIMIT: usize = 20_000;

/// Every listed file below `root`, sorted (at most [`WALK_LIMIT`] files, from at most as
/// many folders).
fn walk(root: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    let mut folders = 0;
    while let Some(dir) = stack.pop() {
        folders += 1;
        if folders > WALK_LIMIT || out.len() >= WALK_LIMIT {
            break;
        }
        let Ok(rd) = std::fs::read_dir(&dir) else {
            continue;
        };
        for p in rd.flatten().map(|e| e.path()) {
            if hidden(&p) {
                continue;
            }
            if p.is_dir() {
                stack.push(p);
            } else if listed(&p) && out.len() < WALK_LIMIT {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

fn hidden(p: &Path) -> bool {
    name_of(p).starts_with('.')
}

fn name_of(p: &Path) -> String {
    p.file_name()
        .map(|f| f.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// Whether the browser lists the file `p`.
fn listed(p: &Path) -> bool {
    p.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| LISTED.contains(&e.to_ascii_lowercase().as_str()))
}

/// What a click on `path` does: open a pattern, switch to a rule, or say why not.
pub fn open(app: &mut GolabApp, path: &Path) {
    let is_rule = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("rule"));
    if is_rule {
        match crate::rule::table::library::read(path) {
            Some(Ok(table)) => {
                let name = table.name.clone();
                crate::rule::table::intern(table);
                app.apply_rule(&name);
                app.notify(format!("rule {name} from {}", path.display()));
            }
            Some(Err(e)) => app.error(e.to_string()),
            None => app.error(format!("{}: not a rule file", path.display())),
        }
        return;
    }
    let snap = app.runner().snapshot();
    app.open_path(path, &snap);
}

/// Draw the browser.
pub fn show(app: &mut GolabApp, ui: &mut egui::Ui) {
    ui.strong("Patterns");
    ui.horizontal(|ui| {
        let label = ui.label("find");
        ui.add(
            egui::TextEdit::singleline(&mut app.browser.filter)
                .hint_text("name anywhere below")
                .desired_width(150.0),
        )
        .labelled_by(label.id);
    });
    let roots = roots(app);
    let filter = app.browser.filter.trim().to_ascii_lowercase();
    egui::ScrollArea::vertical()
        .id_salt("pattern browser")
        .show(ui, |ui| {
            if !filter.is_empty() {
                return matches(app, ui, &roots, &filter);
            }
            recent(app, ui);
            for (title, root) in &roots {
                egui::CollapsingHeader::new(title.as_str())
                    .id_salt(root)
                    .default_open(false)
                    .show(ui, |ui| folder(app, ui, root))
                    .header_response
                    .on_hover_text(root.display().to_string());
            }
            library(app, ui);
        });
}

/// The folders the browser shows: Golly's Patterns, then the user's.
fn roots(app: &GolabApp) -> Vec<(String, PathBuf)> {
    let mut roots: Vec<(String, PathBuf)> = app
        .settings
        .golly_installations()
        .into_iter()
        .map(|i| i.patterns())
        .filter(|p| p.is_dir())
        .map(|p| (format!("Golly's patterns ({})", p.display()), p))
        .collect();
    roots.extend(
        app.settings
            .pattern_folders
            .iter()
            .map(|p| (format!("{} (yours)", name_of(p)), p.clone())),
    );
    roots
}

fn recent(app: &mut GolabApp, ui: &mut egui::Ui) {
    if app.settings.recent.is_empty() {
        return;
    }
    let recent = app.settings.recent.clone();
    egui::CollapsingHeader::new("Recent")
        .default_open(true)
        .show(ui, |ui| {
            for path in recent {
                file_row(app, ui, &path);
            }
        });
}

fn folder(app: &mut GolabApp, ui: &mut egui::Ui, dir: &Path) {
    let entries = app.browser.listing(dir).to_vec();
    if entries.is_empty() {
        ui.weak("(nothing golab opens here)");
    }
    for entry in entries {
        if entry.is_dir() {
            egui::CollapsingHeader::new(name_of(&entry))
                .id_salt(&entry)
                .default_open(false)
                .show(ui, |ui| folder(app, ui, &entry));
        } else {
            file_row(app, ui, &entry);
        }
    }
}

fn file_row(app: &mut GolabApp, ui: &mut egui::Ui, path: &Path) {
    if ui
        .selectable_label(false, name_of(path))
        .on_hover_text(path.display().to_string())
        .clicked()
    {
        open(app, path);
    }
}

fn matches(app: &mut GolabApp, ui: &mut egui::Ui, roots: &[(String, PathBuf)], filter: &str) {
    let mut shown = 0;
    // golab's few bundled patterns first, so a collection's many files never hide them.
    for entry in crate::pattern::library::library() {
        if shown < MATCHES && entry.name.to_ascii_lowercase().contains(filter) {
            library_row(app, ui, entry);
            shown += 1;
        }
    }
    let mut walking = false;
    for (_, root) in roots {
        let Some(files) = app.browser.files_below(root) else {
            walking = true;
            continue;
        };
        let found: Vec<PathBuf> = files
            .iter()
            .filter(|p| name_of(p).to_ascii_lowercase().contains(filter))
            .take(MATCHES - shown)
            .cloned()
            .collect();
        shown += found.len();
        for path in found {
            file_row(app, ui, &path);
        }
    }
    if walking {
        ui.horizontal(|ui| {
            ui.spinner();
            ui.weak("reading the folders…");
        });
        ui.ctx()
            .request_repaint_after(std::time::Duration::from_millis(100));
    } else if shown == 0 {
        ui.weak("nothing matches");
    }
}

fn library(app: &mut GolabApp, ui: &mut egui::Ui) {
    egui::CollapsingHeader::new("golab's library")
        .default_open(false)
        .show(ui, |ui| {
            for entry in crate::pattern::library::library() {
                library_row(app, ui, entry);
            }
        });
}

/// A bundled pattern: a click lets it follow the cursor to be placed.
fn library_row(
    app: &mut GolabApp,
    ui: &mut egui::Ui,
    entry: &crate::pattern::library::LibraryEntry,
) {
    if ui
        .selectable_label(false, entry.name)
        .on_hover_text(format!(
            "{} — click, then click in the world to place it",
            entry.file
        ))
        .clicked()
    {
        match entry.pattern() {
            Ok(mut pattern) => {
                pattern.name.get_or_insert_with(|| entry.name.to_string());
                app.view.placing = Some(Arc::new(pattern));
            }
            Err(e) => app.error(format!("{}: {e}", entry.name)),
        }
    }
}

//! The opened pattern's information (name, author, comments, what the reader changed) in a
//! small panel, kept so that saving the world writes it back.

use crate::pattern::Pattern;

/// What the last opened pattern file said about itself.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PatternInfo {
    /// Where it came from: the path, library name or apgcode as given.
    pub source: String,
    /// `#N`, `!Name:`, `#D Name:` … of the file.
    pub name: Option<String>,
    /// Author or discoverer.
    pub author: Option<String>,
    /// Comment lines.
    pub comments: Vec<String>,
    /// What the reader changed (LifeHistory states, …) and what opening it changed.
    pub warnings: Vec<String>,
}

impl PatternInfo {
    /// The information of `pattern`, opened from `source`.
    pub fn of(pattern: &Pattern, source: &str) -> PatternInfo {
        PatternInfo {
            source: source.to_string(),
            name: pattern.name.clone(),
            author: pattern.author.clone(),
            comments: pattern.comments.clone(),
            warnings: pattern.warnings.clone(),
        }
    }

    /// Copy the name, author and comments into `pattern` (for saving).
    pub fn apply_to(&self, pattern: &mut Pattern) {
        pattern.name.clone_from(&self.name);
        pattern.author.clone_from(&self.author);
        pattern.comments.clone_from(&self.comments);
    }
}

/// The collapsible "Pattern info" section under the pattern controls; nothing until a
/// pattern file has been opened.
pub fn show(ui: &mut egui::Ui, info: Option<&PatternInfo>) {
    let Some(info) = info else {
        return;
    };
    egui::CollapsingHeader::new("Pattern info")
        .default_open(true)
        .show(ui, |ui| {
            let name = info.name.as_deref().unwrap_or("(no name)");
            ui.strong(name).on_hover_text(&info.source);
            if let Some(author) = &info.author {
                ui.label(format!("by {author}"));
            }
            egui::ScrollArea::vertical()
                .id_salt("pattern-info")
                .max_height(120.0)
                .show(ui, |ui| {
                    for line in &info.comments {
                        ui.label(egui::RichText::new(line).small());
                    }
                    for warning in &info.warnings {
                        ui.colored_label(ui.visuals().warn_fg_color, warning);
                    }
                });
        });
}

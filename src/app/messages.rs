//! The message area of the status line: notes, warnings and errors with their own colours,
//! so a failed open cannot be mistaken for a success. Notes fade after a few seconds,
//! warnings after longer; errors stay until dismissed or superseded by a newer message.

use std::time::{Duration, Instant};

/// How long a note stays.
const NOTE_SHOWN: Duration = Duration::from_secs(8);
/// How long a warning stays.
const WARNING_SHOWN: Duration = Duration::from_secs(30);

/// How serious a message is: decides its colour, word and how long it stays.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Severity {
    /// Something done as asked (opened, saved, copied).
    Info,
    /// Done differently than asked, or not done for a harmless reason (no dialog).
    Warning,
    /// Failed: stays until dismissed or superseded.
    Error,
}

impl Severity {
    /// The word shown before the text (colour alone would not tell them apart for everyone).
    pub fn word(self) -> &'static str {
        match self {
            Severity::Info => "Note:",
            Severity::Warning => "Warning:",
            Severity::Error => "Error:",
        }
    }

    /// The text colour in `visuals`.
    pub fn colour(self, visuals: &egui::Visuals) -> egui::Color32 {
        match self {
            Severity::Info => visuals.text_color(),
            Severity::Warning => visuals.warn_fg_color,
            Severity::Error => visuals.error_fg_color,
        }
    }
}

/// One message.
#[derive(Debug, Clone, PartialEq)]
pub struct Message {
    /// What is said.
    pub text: String,
    /// How serious it is.
    pub severity: Severity,
    /// When it goes by itself (`None` for errors: only a dismissal or a newer message).
    pub until: Option<Instant>,
}

/// The message shown now (one at a time: a newer message supersedes an older one).
#[derive(Debug, Default)]
pub struct Messages {
    current: Option<Message>,
}

impl Messages {
    /// Show `text` with `severity`, superseding the message shown before.
    pub fn push(&mut self, severity: Severity, text: impl Into<String>) {
        let now = Instant::now();
        let until = match severity {
            Severity::Info => Some(now + NOTE_SHOWN),
            Severity::Warning => Some(now + WARNING_SHOWN),
            Severity::Error => None,
        };
        self.current = Some(Message {
            text: text.into(),
            severity,
            until,
        });
    }

    /// The message shown now, if it has not expired.
    pub fn current(&self) -> Option<&Message> {
        let now = Instant::now();
        self.current
            .as_ref()
            .filter(|m| m.until.is_none_or(|t| t > now))
    }

    /// Remove the message shown now.
    pub fn dismiss(&mut self) {
        self.current = None;
    }

    /// Draw the message (severity word, coloured text, a × to dismiss it) into `ui`; asks for one
    /// repaint when it is due to expire, none otherwise.
    pub fn show(&mut self, ui: &mut egui::Ui) {
        let Some(message) = self.current().cloned() else {
            self.current = None;
            return;
        };
        let colour = message.severity.colour(ui.visuals());
        if ui
            .small_button("×")
            .on_hover_text("dismiss this message")
            .clicked()
        {
            self.dismiss();
        }
        ui.label(
            egui::RichText::new(message.severity.word())
                .color(colour)
                .strong(),
        );
        let text = egui::RichText::new(&message.text).color(colour);
        ui.add(egui::Label::new(text).truncate());
        if let Some(until) = message.until {
            ui.ctx()
                .request_repaint_after(until.saturating_duration_since(Instant::now()));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_stay_and_notes_expire() {
        let mut messages = Messages::default();
        messages.push(Severity::Error, "could not open");
        let shown = messages.current().unwrap();
        assert_eq!(shown.severity, Severity::Error);
        assert_eq!(shown.until, None);
        messages.push(Severity::Info, "opened");
        let shown = messages.current().unwrap();
        assert_eq!(shown.text, "opened");
        assert!(shown.until.is_some());
        messages.dismiss();
        assert!(messages.current().is_none());
    }
}

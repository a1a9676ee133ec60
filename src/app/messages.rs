//! The message area of the status line: notes, warnings and errors with their own colours,
//! so a failed open cannot be mistaken for a success. Notes fade after a few seconds,
//! warnings after longer; errors stay until dismissed or superseded by a newer message (a
//! note nobody asked for waits until an error has been read).

use std::time::{Duration, Instant};

/// How long a note stays.
const NOTE_SHOWN: Duration = Duration::from_secs(8);
/// How long a warning stays.
const WARNING_SHOWN: Duration = Duration::from_secs(30);
/// How long an error holds the line against notes that come by themselves
/// ([`Messages::push_unasked`]): the start-up probe's note, arriving just after a launch
/// file failed to open, hid the failure.
const ERROR_HOLDS: Duration = Duration::from_secs(15);

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
    /// When it was shown.
    pub since: Instant,
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
            since: now,
        });
    }

    /// A note nobody asked for just now (the start-up probe's outcome): shown unless an
    /// error has been showing for less than [`ERROR_HOLDS`], which it must not hide.
    pub fn push_unasked(&mut self, text: impl Into<String>) {
        let holding = self
            .current
            .as_ref()
            .is_some_and(|m| m.severity == Severity::Error && m.since.elapsed() < ERROR_HOLDS);
        if !holding {
            self.push(Severity::Info, text);
        }
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
        // A note nobody asked for does not hide a fresh error; once the error has held the
        // line long enough, it shows.
        messages.push_unasked("the probe chose rayon");
        assert_eq!(messages.current().unwrap().text, "could not open");
        messages.current.as_mut().unwrap().since -= ERROR_HOLDS;
        messages.push_unasked("the probe chose rayon");
        assert_eq!(messages.current().unwrap().text, "the probe chose rayon");
        // What the user asked for supersedes an error at once.
        messages.push(Severity::Error, "could not save");
        messages.push(Severity::Info, "opened");
        let shown = messages.current().unwrap();
        assert_eq!(shown.text, "opened");
        assert!(shown.until.is_some());
        messages.dismiss();
        assert!(messages.current().is_none());
    }
}

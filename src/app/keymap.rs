//! Keys as Golly binds them: every action a key can do, the chords that name keys, and
//! Golly 5's default table (gui-wx/wxprefs.cpp `AddDefaultKeyActions`, Windows/Linux
//! modifiers: Ctrl is egui's `command`, so Cmd on a Mac), with golab's own actions on keys
//! Golly leaves free. The user changes bindings in the preferences; the help (F1, H, ?)
//! lists them as they are.

use std::fmt;

use egui::Key;
use serde::{Deserialize, Serialize};

/// Something a key does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Action {
    // Control (Golly's Control menu).
    /// Start or stop generating.
    StartStop,
    /// One generation.
    NextGen,
    /// One step of base^exponent generations.
    NextStep,
    /// One generation of the selection alone.
    AdvanceSelection,
    /// One generation of what lies outside the selection.
    AdvanceOutside,
    /// Step exponent up.
    Faster,
    /// Step exponent down (below 0: delays).
    Slower,
    /// Back to the starting pattern.
    Reset,
    // View.
    /// Scroll left.
    Left,
    /// Scroll right.
    Right,
    /// Scroll up.
    Up,
    /// Scroll down.
    Down,
    /// Double the scale.
    ZoomIn,
    /// Halve the scale.
    ZoomOut,
    /// One pixel a cell.
    Scale1,
    /// Two pixels a cell.
    Scale2,
    /// Four pixels a cell.
    Scale4,
    /// Eight pixels a cell.
    Scale8,
    /// Sixteen pixels a cell.
    Scale16,
    /// Thirty-two pixels a cell.
    Scale32,
    /// Fit the pattern in view.
    Fit,
    /// Fit the selection in view.
    FitSelection,
    /// Put the origin in the middle of the view.
    Middle,
    /// Make the cell under the cursor the shown origin.
    ChangeOrigin,
    /// Show the true origin again.
    RestoreOrigin,
    /// Keep the pattern in view while it runs.
    AutoFit,
    /// Grid lines on or off.
    ShowGrid,
    /// Invert the colours.
    Invert,
    /// Counters in full or abbreviated.
    ShowExact,
    /// The opened file's comments.
    Info,
    /// The help (these keys).
    Help,
    /// Full screen on or off.
    FullScreen,
    // Edit.
    /// Shrink the selection to its cells and fit it.
    ShrinkFit,
    /// Forget the selection (its cells stay).
    RemoveSelection,
    /// Select the whole pattern.
    SelectAll,
    /// Paste the clipboard (then click to place).
    Paste,
    /// Clear the selection's cells.
    Clear,
    /// Clear the cells outside the selection.
    ClearOutside,
    /// Fill the selection with a random soup.
    RandomFill,
    /// Undo.
    Undo,
    /// Redo.
    Redo,
    /// Flip the selection top to bottom.
    FlipTopBottom,
    /// Flip the selection left to right.
    FlipLeftRight,
    /// Rotate the selection clockwise.
    RotateCw,
    /// Rotate the selection anticlockwise.
    RotateCcw,
    /// The next cursor mode.
    CycleCursor,
    /// Draw cursor.
    CursorDraw,
    /// Pick cursor (the state to draw with).
    CursorPick,
    /// Select cursor.
    CursorSelect,
    /// Move cursor (drag to pan).
    CursorMove,
    /// Zoom-in cursor.
    CursorZoomIn,
    /// Zoom-out cursor.
    CursorZoomOut,
    // File.
    /// A new empty world.
    New,
    /// Open a pattern.
    Open,
    /// Save the pattern.
    Save,
    /// The preferences (folders, keys).
    Preferences,
    // golab's own, on keys Golly leaves free.
    /// The next strategy.
    NextStrategy,
    /// Open the strategy list.
    PickStrategy,
    /// The World or the Lab tab.
    ToggleLab,
    /// A new random soup on the bounded grid.
    NewSoup,
    /// Type a generation to go to.
    GoTo,
}

impl Action {
    /// Every action, in the order the help lists them.
    pub const ALL: &'static [Action] = &[
        Action::StartStop,
        Action::NextGen,
        Action::NextStep,
        Action::AdvanceSelection,
        Action::AdvanceOutside,
        Action::Faster,
        Action::Slower,
        Action::Reset,
        Action::Left,
        Action::Right,
        Action::Up,
        Action::Down,
        Action::ZoomIn,
        Action::ZoomOut,
        Action::Scale1,
        Action::Scale2,
        Action::Scale4,
        Action::Scale8,
        Action::Scale16,
        Action::Scale32,
        Action::Fit,
        Action::FitSelection,
        Action::Middle,
        Action::ChangeOrigin,
        Action::RestoreOrigin,
        Action::AutoFit,
        Action::ShowGrid,
        Action::Invert,
        Action::ShowExact,
        Action::Info,
        Action::Help,
        Action::FullScreen,
        Action::ShrinkFit,
        Action::RemoveSelection,
        Action::SelectAll,
        Action::Paste,
        Action::Clear,
        Action::ClearOutside,
        Action::RandomFill,
        Action::Undo,
        Action::Redo,
        Action::FlipTopBottom,
        Action::FlipLeftRight,
        Action::RotateCw,
        Action::RotateCcw,
        Action::CycleCursor,
        Action::CursorDraw,
        Action::CursorPick,
        Action::CursorSelect,
        Action::CursorMove,
        Action::CursorZoomIn,
        Action::CursorZoomOut,
        Action::New,
        Action::Open,
        Action::Save,
        Action::Preferences,
        Action::NextStrategy,
        Action::PickStrategy,
        Action::ToggleLab,
        Action::NewSoup,
        Action::GoTo,
    ];

    /// What the help and the preferences call it (Golly's menu item where it has one).
    pub fn describe(self) -> &'static str {
        match self {
            Action::StartStop => "Start / Stop generating",
            Action::NextGen => "Next generation",
            Action::NextStep => "Next step (base^exponent generations)",
            Action::AdvanceSelection => "Advance selection one generation",
            Action::AdvanceOutside => "Advance outside the selection",
            Action::Faster => "Faster (step exponent up)",
            Action::Slower => "Slower (step exponent down; below 0 a delay)",
            Action::Reset => "Reset to the starting pattern",
            Action::Left => "Scroll left",
            Action::Right => "Scroll right",
            Action::Up => "Scroll up",
            Action::Down => "Scroll down",
            Action::ZoomIn => "Zoom in",
            Action::ZoomOut => "Zoom out",
            Action::Scale1 => "Scale 1:1",
            Action::Scale2 => "Scale 1:2",
            Action::Scale4 => "Scale 1:4",
            Action::Scale8 => "Scale 1:8",
            Action::Scale16 => "Scale 1:16",
            Action::Scale32 => "Scale 1:32",
            Action::Fit => "Fit pattern",
            Action::FitSelection => "Fit selection",
            Action::Middle => "Middle (origin in the centre of the view)",
            Action::ChangeOrigin => "Set the cell under the cursor as origin",
            Action::RestoreOrigin => "Restore origin",
            Action::AutoFit => "Auto fit while generating",
            Action::ShowGrid => "Show grid lines",
            Action::Invert => "Invert colours",
            Action::ShowExact => "Show exact numbers",
            Action::Info => "Pattern info",
            Action::Help => "Help (these keys)",
            Action::FullScreen => "Full screen",
            Action::ShrinkFit => "Shrink selection and fit",
            Action::RemoveSelection => "Remove selection",
            Action::SelectAll => "Select all",
            Action::Paste => "Paste",
            Action::Clear => "Clear (the selection's cells)",
            Action::ClearOutside => "Clear outside the selection",
            Action::RandomFill => "Random fill the selection",
            Action::Undo => "Undo",
            Action::Redo => "Redo",
            Action::FlipTopBottom => "Flip top-bottom",
            Action::FlipLeftRight => "Flip left-right",
            Action::RotateCw => "Rotate clockwise",
            Action::RotateCcw => "Rotate anticlockwise",
            Action::CycleCursor => "Cycle cursor mode",
            Action::CursorDraw => "Cursor: draw",
            Action::CursorPick => "Cursor: pick a state",
            Action::CursorSelect => "Cursor: select",
            Action::CursorMove => "Cursor: move",
            Action::CursorZoomIn => "Cursor: zoom in",
            Action::CursorZoomOut => "Cursor: zoom out",
            Action::New => "New pattern",
            Action::Open => "Open pattern…",
            Action::Save => "Save pattern…",
            Action::Preferences => "Preferences (folders, keys)",
            Action::NextStrategy => "golab: next strategy",
            Action::PickStrategy => "golab: open the strategy list",
            Action::ToggleLab => "golab: World / Lab tab",
            Action::NewSoup => "golab: new random soup",
            Action::GoTo => "golab: go to generation…",
        }
    }
}

/// A key with modifiers, or a typed character (for the symbols egui reports as text:
/// `>`, `<`, `?`, `_`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Chord {
    /// A key; `command` is Ctrl (Cmd on a Mac).
    Key {
        /// The key.
        key: Key,
        /// Shift held.
        shift: bool,
        /// Ctrl (Cmd) held.
        command: bool,
        /// Alt (Option) held.
        alt: bool,
    },
    /// A character, whatever produced it.
    Char(char),
}

impl Chord {
    /// The key alone.
    pub const fn key(key: Key) -> Chord {
        Chord::Key {
            key,
            shift: false,
            command: false,
            alt: false,
        }
    }

    /// Shift and the key.
    pub const fn shift(key: Key) -> Chord {
        Chord::Key {
            key,
            shift: true,
            command: false,
            alt: false,
        }
    }

    /// Ctrl (Cmd) and the key.
    pub const fn ctrl(key: Key) -> Chord {
        Chord::Key {
            key,
            shift: false,
            command: true,
            alt: false,
        }
    }

    /// Shift, Ctrl (Cmd) and the key.
    pub const fn shift_ctrl(key: Key) -> Chord {
        Chord::Key {
            key,
            shift: true,
            command: true,
            alt: false,
        }
    }

    /// Whether a key event of `key` with `modifiers` is this chord. Symbol keys whose
    /// character needs Shift on some layouts (`+`, `=`, `[`, `]`…) match with or without it
    /// unless the chord names Shift.
    pub fn matches(&self, key: Key, modifiers: egui::Modifiers) -> bool {
        match *self {
            Chord::Char(_) => false,
            Chord::Key {
                key: k,
                shift,
                command,
                alt,
            } => {
                let shift_ok = modifiers.shift == shift || (!shift && is_symbol(k));
                k == key && shift_ok && modifiers.command == command && modifiers.alt == alt
            }
        }
    }
}

/// A key as golab writes it: punctuation as its character (`]`, `-`), others by name
/// (`Left`, `F5`: every font draws those).
fn key_text(key: Key) -> &'static str {
    match key {
        Key::Minus => "-",
        Key::ArrowDown | Key::ArrowLeft | Key::ArrowRight | Key::ArrowUp => key.name(),
        _ => key.symbol_or_name(),
    }
}

/// Keys whose character a layout may need Shift for.
fn is_symbol(key: Key) -> bool {
    matches!(
        key,
        Key::Plus
            | Key::Minus
            | Key::Equals
            | Key::OpenBracket
            | Key::CloseBracket
            | Key::Comma
            | Key::Period
            | Key::Slash
            | Key::Questionmark
    )
}

impl fmt::Display for Chord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Chord::Char(c) => write!(f, "{c}"),
            Chord::Key {
                key,
                shift,
                command,
                alt,
            } => {
                if command {
                    f.write_str("Ctrl+")?;
                }
                if alt {
                    f.write_str("Alt+")?;
                }
                if shift {
                    f.write_str("Shift+")?;
                }
                f.write_str(key_text(key))
            }
        }
    }
}

impl std::str::FromStr for Chord {
    type Err = String;

    /// `Ctrl+Shift+Z`, `Space`, `F2`, or a single character such as `>`.
    fn from_str(text: &str) -> Result<Chord, String> {
        let text = text.trim();
        if text.chars().count() == 1 {
            let c = text.chars().next().unwrap_or(' ');
            return Ok(match Key::from_name(text) {
                Some(key) if c.is_ascii_alphanumeric() || "+-=[],./".contains(c) => Chord::key(key),
                _ => Chord::Char(c),
            });
        }
        let mut parts: Vec<&str> = text.split('+').collect();
        // A chord ending in "+" names the Plus key ("Ctrl++").
        if text.ends_with("++") {
            parts.truncate(parts.len() - 2);
            parts.push("Plus");
        }
        let Some(name) = parts.pop() else {
            return Err(format!("'{text}' names no key"));
        };
        let key = Key::from_name(name).ok_or_else(|| format!("'{name}' is not a key"))?;
        let (mut shift, mut command, mut alt) = (false, false, false);
        for m in parts {
            match m.to_ascii_lowercase().as_str() {
                "shift" => shift = true,
                "ctrl" | "cmd" | "command" => command = true,
                "alt" | "opt" | "option" => alt = true,
                other => return Err(format!("'{other}' is not a modifier (Shift, Ctrl, Alt)")),
            }
        }
        Ok(Chord::Key {
            key,
            shift,
            command,
            alt,
        })
    }
}

impl Serialize for Chord {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_string())
    }
}

impl<'de> Deserialize<'de> for Chord {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Chord, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// Which chord does which action.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Keymap {
    /// The bindings; a chord bound twice does the first action.
    pub bindings: Vec<(Chord, Action)>,
}

impl Default for Keymap {
    fn default() -> Self {
        Keymap::golly()
    }
}

impl Keymap {
    /// Golly 5's defaults (Windows/Linux), and golab's own on keys Golly leaves free.
    pub fn golly() -> Keymap {
        use Action as A;
        use Chord as C;
        let digits = [
            (Key::Num1, A::Scale1),
            (Key::Num2, A::Scale2),
            (Key::Num4, A::Scale4),
            (Key::Num8, A::Scale8),
            (Key::Num6, A::Scale16),
            (Key::Num3, A::Scale32),
        ];
        let mut bindings = vec![
            (C::key(Key::Enter), A::StartStop),
            (C::key(Key::Space), A::NextGen),
            (C::key(Key::Tab), A::NextStep),
            (C::ctrl(Key::Space), A::AdvanceSelection),
            (C::shift(Key::Space), A::AdvanceOutside),
            (C::key(Key::Plus), A::Faster),
            (C::key(Key::Equals), A::Faster),
            (C::key(Key::Minus), A::Slower),
            (C::Char('_'), A::Slower),
            (C::ctrl(Key::R), A::Reset),
            (C::key(Key::ArrowLeft), A::Left),
            (C::key(Key::ArrowRight), A::Right),
            (C::key(Key::ArrowUp), A::Up),
            (C::key(Key::ArrowDown), A::Down),
            (C::key(Key::CloseBracket), A::ZoomIn),
            (C::key(Key::OpenBracket), A::ZoomOut),
            (C::key(Key::F), A::Fit),
            (C::ctrl(Key::F), A::Fit),
            (C::shift(Key::F), A::FitSelection),
            (C::shift_ctrl(Key::F), A::FitSelection),
            (C::key(Key::M), A::Middle),
            (C::ctrl(Key::M), A::Middle),
            (C::key(Key::Num0), A::ChangeOrigin),
            (C::key(Key::Num9), A::RestoreOrigin),
            (C::ctrl(Key::Num9), A::RestoreOrigin),
            (C::key(Key::T), A::AutoFit),
            (C::ctrl(Key::T), A::AutoFit),
            (C::key(Key::L), A::ShowGrid),
            (C::ctrl(Key::L), A::ShowGrid),
            (C::key(Key::B), A::Invert),
            (C::ctrl(Key::B), A::Invert),
            (C::key(Key::E), A::ShowExact),
            (C::ctrl(Key::E), A::ShowExact),
            (C::key(Key::I), A::Info),
            (C::ctrl(Key::I), A::Info),
            (C::key(Key::H), A::Help),
            (C::Char('?'), A::Help),
            (C::key(Key::F1), A::Help),
            (C::key(Key::F11), A::FullScreen),
            (C::key(Key::S), A::ShrinkFit),
            (C::key(Key::K), A::RemoveSelection),
            (C::ctrl(Key::K), A::RemoveSelection),
            (C::key(Key::A), A::SelectAll),
            (C::ctrl(Key::A), A::SelectAll),
            (C::key(Key::V), A::Paste),
            (C::key(Key::Delete), A::Clear),
            (C::key(Key::Backspace), A::Clear),
            (C::shift(Key::Delete), A::ClearOutside),
            (C::shift(Key::Backspace), A::ClearOutside),
            (C::ctrl(Key::Num5), A::RandomFill),
            (C::key(Key::Z), A::Undo),
            (C::ctrl(Key::Z), A::Undo),
            (C::shift(Key::Z), A::Redo),
            (C::shift_ctrl(Key::Z), A::Redo),
            (C::key(Key::Y), A::FlipTopBottom),
            (C::key(Key::X), A::FlipLeftRight),
            (C::Char('>'), A::RotateCw),
            (C::Char('<'), A::RotateCcw),
            (C::key(Key::C), A::CycleCursor),
            (C::key(Key::F2), A::CursorDraw),
            (C::key(Key::F3), A::CursorPick),
            (C::key(Key::F4), A::CursorSelect),
            (C::key(Key::F5), A::CursorMove),
            (C::key(Key::F6), A::CursorZoomIn),
            (C::key(Key::F7), A::CursorZoomOut),
            (C::ctrl(Key::N), A::New),
            (C::ctrl(Key::O), A::Open),
            (C::ctrl(Key::S), A::Save),
            (C::key(Key::Comma), A::Preferences),
            (C::ctrl(Key::Comma), A::Preferences),
            // golab's own: keys Golly leaves unbound.
            (C::key(Key::N), A::NextStrategy),
            (C::key(Key::P), A::PickStrategy),
            (C::key(Key::W), A::ToggleLab),
            (C::key(Key::R), A::NewSoup),
            (C::key(Key::G), A::GoTo),
        ];
        bindings.extend(digits.map(|(k, a)| (C::key(k), a)));
        Keymap { bindings }
    }

    /// The action of a key event, if any chord is bound to it.
    pub fn action_of_key(&self, key: Key, modifiers: egui::Modifiers) -> Option<Action> {
        self.bindings
            .iter()
            .find(|(c, _)| c.matches(key, modifiers))
            .map(|&(_, a)| a)
    }

    /// The action of a typed character bound as a [`Chord::Char`].
    pub fn action_of_char(&self, c: char) -> Option<Action> {
        self.bindings
            .iter()
            .find(|(chord, _)| *chord == Chord::Char(c))
            .map(|&(_, a)| a)
    }

    /// The chords bound to `action`, as the help lists them ("Z, Ctrl+Z").
    pub fn chords_of(&self, action: Action) -> Vec<Chord> {
        self.bindings
            .iter()
            .filter(|&&(_, a)| a == action)
            .map(|&(c, _)| c)
            .collect()
    }

    /// What `action` does and its keys as bound now, for a button's hover text.
    pub fn hint(&self, action: Action) -> String {
        let keys: Vec<String> = self
            .chords_of(action)
            .iter()
            .map(ToString::to_string)
            .collect();
        if keys.is_empty() {
            action.describe().to_string()
        } else {
            format!("{} ({})", action.describe(), keys.join(", "))
        }
    }

    /// Bind `chord` to `action`, unbinding whatever it did before.
    pub fn bind(&mut self, chord: Chord, action: Action) {
        self.bindings.retain(|(c, _)| *c != chord);
        self.bindings.push((chord, action));
    }

    /// Unbind `chord`.
    pub fn unbind(&mut self, chord: Chord) {
        self.bindings.retain(|(c, _)| *c != chord);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chords_read_back_what_they_write() {
        for text in [
            "Ctrl+Shift+Z",
            "Space",
            "F2",
            "Shift+Delete",
            "Ctrl+5",
            "]",
            "-",
            "Left",
            "Ctrl+Down",
            ">",
            "?",
            "_",
        ] {
            let chord: Chord = text.parse().unwrap();
            assert_eq!(chord.to_string(), text, "{text}");
        }
        assert!("Hyper+Z".parse::<Chord>().is_err());
        assert!("Ctrl+Nokey".parse::<Chord>().is_err());
        let json = serde_json::to_string(&Keymap::golly()).unwrap();
        assert_eq!(
            serde_json::from_str::<Keymap>(&json).unwrap(),
            Keymap::golly()
        );
    }

    #[test]
    fn golly_keys_do_gollys_actions() {
        let map = Keymap::golly();
        let none = egui::Modifiers::NONE;
        let shift = egui::Modifiers::SHIFT;
        let ctrl = egui::Modifiers::COMMAND;
        assert_eq!(map.action_of_key(Key::Enter, none), Some(Action::StartStop));
        assert_eq!(map.action_of_key(Key::Space, none), Some(Action::NextGen));
        assert_eq!(map.action_of_key(Key::Tab, none), Some(Action::NextStep));
        assert_eq!(
            map.action_of_key(Key::Space, ctrl),
            Some(Action::AdvanceSelection)
        );
        assert_eq!(
            map.action_of_key(Key::Space, shift),
            Some(Action::AdvanceOutside)
        );
        // '+' is Shift+'=' on many layouts: it still goes faster.
        assert_eq!(map.action_of_key(Key::Plus, shift), Some(Action::Faster));
        assert_eq!(
            map.action_of_key(Key::Delete, shift),
            Some(Action::ClearOutside)
        );
        assert_eq!(map.action_of_key(Key::Num6, none), Some(Action::Scale16));
        assert_eq!(map.action_of_key(Key::Num3, none), Some(Action::Scale32));
        assert_eq!(map.action_of_char('>'), Some(Action::RotateCw));
        assert_eq!(map.action_of_key(Key::Z, shift), Some(Action::Redo));
        assert_eq!(map.action_of_key(Key::F, shift), Some(Action::FitSelection));
        // Every action has a key, and golab's own sit on keys Golly leaves free.
        for &action in Action::ALL {
            assert!(!map.chords_of(action).is_empty(), "{action:?} has no key");
        }
        let mut m = map.clone();
        m.bind(Chord::key(Key::Q), Action::StartStop);
        assert_eq!(m.action_of_key(Key::Q, none), Some(Action::StartStop));
        m.unbind(Chord::key(Key::Enter));
        assert_eq!(m.action_of_key(Key::Enter, none), None);
    }
}

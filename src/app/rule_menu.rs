//! The rule field's help and the rules menu: golab's named rules grouped by family, then
//! examples of the neighbourhoods that have no popular names.

use super::GolabApp;
use crate::rule::NAMED_SPECS;
use crate::runner::Snapshot;

/// What the rule field accepts, shown on hover.
pub(super) const RULE_HELP: &str = "Any rule Golly runs in these families:\n\
    • Life-like: B3/S23, 23/3, HighLife\n\
    • isotropic non-totalistic (Hensel letters): B2-a/S12, B3/S2-i34q\n\
    • MAP rules: MAP + 86 base64 characters\n\
    • hexagonal and von Neumann: B2/S34H, B2/S013V\n\
    • Generations: /2/3, 345/2/4, B2/S/C3, B2-a/S12/3 (dying cells drawn in red)\n\
    • rule tables and trees by name: golab's bundled WireWorld, LangtonsLoops, BylsLoop,\n  \
      LangtonsAnt…; with Golly's Rules folder (found where Golly is installed, or named in\n  \
      Preferences) Langtons-Loops, Codd and the rest; your own rules folder (Preferences)\n\
    • von Neumann's automaton: JvN29, Nobili32, Hutton32\n\
    • any two-state rule above + History (7 states), Super (26) or Investigator (21):\n  \
      LifeHistory, B36/S23Super, B2-a/S12Investigator (Golly's Super algorithm)\n\
    • Larger than Life, range r up to 500: R5,C0,M1,S34..58,B34..45,NM (LtL), 5,34,45,34,58\n  \
      (Kellie Evans), R2,C0,S2-3,B3,N+ (HROT lists); C states (C ≥ 3 decay), M1 counts the\n  \
      cell itself; neighbourhoods N + M, N, C, 2, +, X, *, #, B, D, H, A, 3, G, @hex, Whex;\n  \
      unbounded, it runs in a grid that grows with the pattern, as in Golly";

/// Examples of the neighbourhoods that have no popular names.
const NEIGHBOURHOOD_EXAMPLES: &[(&str, &str)] =
    &[("hexagonal", "B2/S34H"), ("von Neumann", "B2/S013V")];

/// One group of the rules menu: its heading and (label, rule text) entries.
pub(super) type MenuGroup = (&'static str, Vec<(String, String)>);

/// The named rules grouped by family for the rules menu, then neighbourhood examples, then
/// every rule file the bundled rules and the rules folders offer (by name).
pub(super) fn rule_menu() -> Vec<MenuGroup> {
    let mut groups: Vec<MenuGroup> = vec![
        ("Life-like", Vec::new()),
        ("isotropic non-totalistic", Vec::new()),
        ("Generations", Vec::new()),
    ];
    for &(name, text) in NAMED_SPECS {
        let Ok(rule) = text.parse::<crate::rule::Rule>() else {
            continue;
        };
        let group = if rule.has_dying_states() {
            2
        } else if rule.as_totalistic().is_some() {
            0
        } else {
            1
        };
        groups[group]
            .1
            .push((format!("{name} ({text})"), text.to_string()));
    }
    let examples = NEIGHBOURHOOD_EXAMPLES
        .iter()
        .map(|(name, text)| (format!("{name} ({text})"), text.to_string()))
        .collect();
    groups.push(("other neighbourhoods", examples));
    let ltl = crate::rule::ltl::NAMED
        .iter()
        .map(|(name, text)| (format!("{name} ({text})"), text.to_string()))
        .collect();
    groups.push(("Larger than Life", ltl));
    let folders = crate::rule::table::library::folders();
    let tables = crate::rule::table::library::available_names(&folders)
        .into_iter()
        .map(|name| (name.clone(), name))
        .collect();
    groups.push(("rule tables (.rule files)", tables));
    let built_in = ["JvN29", "Nobili32", "Hutton32"]
        .into_iter()
        .map(|name| {
            (
                format!("{name} (von Neumann's automaton, built in)"),
                name.to_string(),
            )
        })
        .collect();
    groups.push(("Golly's JvN algorithm", built_in));
    let layered = [
        ("LifeHistory", "7 states: envelope, marks, boundary"),
        ("LifeSuper", "26 states: trails, no-trail states, labels"),
        ("LifeInvestigator", "21 states: killers, eggs, catalysts"),
        ("B36/S23History", "HighLife with history"),
    ]
    .into_iter()
    .map(|(name, what)| (format!("{name} ({what})"), name.to_string()))
    .collect();
    groups.push((
        "Golly's Super algorithm (any two-state rule + History, Super, Investigator)",
        layered,
    ));
    groups
}

/// The rule row of the World section: the field (Enter or Set rule applies it), the rules
/// menu, the hover help (a rule table's own description), and why a rule was refused.
pub(super) fn rule_row(app: &mut GolabApp, ui: &mut egui::Ui, snap: &Snapshot) {
    ui.horizontal(|ui| {
        let label = ui.label("rule");
        let field = ui
            .add(egui::TextEdit::singleline(&mut app.panel.rule_text).desired_width(80.0))
            .labelled_by(label.id);
        if field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter)) {
            let text = app.panel.rule_text.clone();
            app.apply_rule(&text);
        }
        if ui.button("Set rule").clicked() {
            let text = app.panel.rule_text.clone();
            app.apply_rule(&text);
        }
        egui::ComboBox::from_label("rules")
            .selected_text("common")
            .width(70.0)
            .height(480.0)
            .show_ui(ui, |ui| {
                for (heading, entries) in rule_menu() {
                    ui.label(egui::RichText::new(heading).weak().small());
                    for (label, rule) in entries {
                        if ui.selectable_label(false, label).clicked() {
                            app.panel.rule_text = rule.clone();
                            app.apply_rule(&rule);
                        }
                    }
                }
            });
    })
    .response
    .on_hover_text(match snap.rule.rule_table() {
        // A rule table's own description (its @RULE section), as Golly shows it.
        Some(table) => format!(
            "{}: {} states, {}\n\n{}\n\n{RULE_HELP}",
            table.name,
            table.states(),
            table.source,
            table.description
        ),
        None => RULE_HELP.to_string(),
    });
    if let Some(error) = &app.panel.rule_error {
        ui.colored_label(ui.visuals().error_fg_color, error);
    }
}

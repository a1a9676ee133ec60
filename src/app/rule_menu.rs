//! The rule field's help and the rules menu: golab's named rules grouped by family, then
//! examples of the neighbourhoods that have no popular names.

use crate::rule::NAMED_SPECS;

/// What the rule field accepts, shown on hover.
pub(super) const RULE_HELP: &str = "Any rule Golly runs in these families:\n\
    • Life-like: B3/S23, 23/3, HighLife\n\
    • isotropic non-totalistic (Hensel letters): B2-a/S12, B3/S2-i34q\n\
    • MAP rules: MAP + 86 base64 characters\n\
    • hexagonal and von Neumann: B2/S34H, B2/S013V\n\
    • Generations: /2/3, 345/2/4, B2/S/C3, B2-a/S12/3 (dying cells drawn in red)";

/// Examples of the neighbourhoods that have no popular names.
const NEIGHBOURHOOD_EXAMPLES: &[(&str, &str)] =
    &[("hexagonal", "B2/S34H"), ("von Neumann", "B2/S013V")];

/// The named rules grouped by family for the rules menu, then neighbourhood examples.
pub(super) fn rule_menu() -> Vec<(&'static str, Vec<(&'static str, &'static str)>)> {
    let mut groups: Vec<(&'static str, Vec<(&'static str, &'static str)>)> = vec![
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
        groups[group].1.push((name, text));
    }
    groups.push(("other neighbourhoods", NEIGHBOURHOOD_EXAMPLES.to_vec()));
    groups
}

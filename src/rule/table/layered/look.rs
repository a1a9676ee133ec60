//! How the layered families' states are named and coloured: the names and colour names of
//! Golly's help (Algorithms > Super), the colours golab's own reading of those names.

use super::Variant;
use crate::rule::Rule;

/// (name, colour) of each state of `variant`.
fn states(variant: Variant) -> &'static [(&'static str, [u8; 3])] {
    match variant {
        Variant::History => &[
            ("off", [0, 0, 0]),
            ("on", [0, 255, 0]),
            ("history / envelope", [0, 0, 160]),
            ("marked on", [216, 255, 216]),
            ("marked off", [255, 0, 0]),
            ("start on", [255, 255, 0]),
            ("boundary off", [96, 96, 96]),
        ],
        Variant::Super => &[
            ("off", [0, 0, 0]),
            ("on, trail #1", [0, 255, 0]),
            ("off, trail #1", [0, 0, 255]),
            ("marked on", [255, 160, 192]),
            ("marked off", [255, 0, 0]),
            ("start on", [255, 255, 0]),
            ("boundary off", [96, 96, 96]),
            ("marked on, no-trail boundary", [255, 64, 160]),
            ("marked off, no-trail boundary", [128, 0, 160]),
            ("on, trail #2", [96, 176, 255]),
            ("off, trail #2", [64, 80, 144]),
            ("on, trail #3", [64, 224, 208]),
            ("off, trail #3", [0, 128, 112]),
            ("on, no trail #1", [255, 255, 255]),
            ("vanishing off label", [255, 99, 71]),
            ("on, no trail #2", [250, 128, 114]),
            ("removable off label", [255, 144, 144]),
            ("on, no trail #3", [255, 165, 0]),
            ("cyclable off label #1", [245, 222, 179]),
            ("on, no trail #4", [0, 255, 255]),
            ("cyclable off label #2", [192, 192, 192]),
            ("on, no trail #5", [154, 205, 50]),
            ("cyclable off label #3", [255, 192, 203]),
            ("on, no trail #6", [64, 255, 64]),
            ("hidden off label", [24, 24, 24]),
            ("on, no trail #7", [208, 0, 128]),
        ],
        Variant::Investigator => &[
            ("off", [0, 0, 0]),
            ("on", [0, 255, 0]),
            ("killer on", [0, 255, 255]),
            ("killer off", [255, 0, 0]),
            ("eternal on", [255, 255, 255]),
            ("eternal off", [80, 80, 80]),
            ("period-2 killer on", [255, 0, 255]),
            ("period-2 killer off", [96, 0, 128]),
            ("egg on", [255, 255, 0]),
            ("egg off", [218, 165, 32]),
            ("period-2 on", [0, 192, 0]),
            ("period-2 off", [0, 100, 0]),
            ("period-2 egg on", [255, 165, 0]),
            ("period-2 egg off", [192, 96, 0]),
            ("inverter", [0, 0, 255]),
            ("catalyst", [192, 192, 192]),
            ("catalyst killer", [128, 128, 128]),
            ("on for births", [255, 160, 192]),
            ("off for births", [139, 0, 139]),
            ("period-2 on for births", [96, 160, 160]),
            ("period-2 off for births", [0, 139, 139]),
        ],
    }
}

/// Each state's name (the rule's `@NAMES`).
pub(super) fn names(variant: Variant) -> Vec<String> {
    states(variant)
        .iter()
        .map(|(name, _)| name.to_string())
        .collect()
}

/// Each state's colour (the rule's `@COLORS`).
pub(super) fn colours(variant: Variant) -> Vec<[u8; 3]> {
    states(variant).iter().map(|&(_, c)| c).collect()
}

/// The hover text of the rule field.
pub(super) fn description(variant: Variant, base: &Rule) -> String {
    let what = match variant {
        Variant::History => {
            "odd states are ON; a cell that dies leaves a history (2) envelope, marked cells \
             (3 on, 4 off, 5 start on) stay marked, and the boundary (6) never turns on and \
             turns ON neighbours off"
        }
        Variant::Super => {
            "History's seven states plus trail colours (9/10, 11/12), no-trail ON states \
             (13, 15, …, 25) whose births take their parents' state, no-trail boundaries \
             (7, 8) and label states (14–24)"
        }
        Variant::Investigator => {
            "killers, eggs, eternal and period-2 states, an inverter, catalysts and \
             birth-only states over the base rule's ON (1) and OFF (0)"
        }
    };
    format!(
        "{} states over {} (Golly's Super algorithm, {} family): {what}",
        variant.states(),
        base.canonical(),
        variant.suffix()
    )
}

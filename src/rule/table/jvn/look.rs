//! How JvN's states are named and coloured in the window.

use super::Cell;

/// A state's name (`@NAMES`): U, S0…, "ordinary excited east", C01, ….
pub(super) fn state_name(cell: Cell) -> String {
    const ARROWS: [&str; 4] = ["east", "north", "west", "south"];
    const PATH: [&str; 9] = ["U", "S", "S0", "S1", "S00", "S01", "S10", "S11", "S000"];
    match cell {
        Cell::Path(k) => PATH[usize::from(k)].to_string(),
        Cell::Transmission {
            special,
            dir,
            excited,
        } => format!(
            "{} {} {}",
            if special { "special" } else { "ordinary" },
            if excited { "excited" } else { "quiescent" },
            ARROWS[usize::from(dir)]
        ),
        Cell::Confluent { arrived, emitting } => {
            format!("C{}{}", u8::from(emitting), u8::from(arrived))
        }
        Cell::Crossing { ew, ns } => match (ew, ns) {
            (true, false) => "crossing, excited east-west".into(),
            (false, true) => "crossing, excited north-south".into(),
            _ => "crossing, excited both ways".into(),
        },
    }
}

/// A state's colour by kind: ground, construction path, ordinary blue, special red,
/// confluent yellow, crossings green.
pub(super) fn colour(cell: Cell) -> [u8; 3] {
    match cell {
        Cell::Path(0) => [48, 48, 48],
        Cell::Path(k) => [120 + 15 * k, 60 + 10 * k, 160],
        Cell::Transmission {
            special: false,
            excited,
            ..
        } => {
            if excited {
                [120, 200, 255]
            } else {
                [30, 90, 220]
            }
        }
        Cell::Transmission { excited, .. } => {
            if excited {
                [255, 150, 120]
            } else {
                [200, 40, 40]
            }
        }
        Cell::Confluent { arrived, emitting } => match (arrived, emitting) {
            (false, false) => [220, 200, 40],
            (true, false) => [240, 230, 120],
            (false, true) => [250, 250, 170],
            (true, true) => [255, 255, 230],
        },
        Cell::Crossing { .. } => [90, 220, 120],
    }
}

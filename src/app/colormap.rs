//! Cell colours by normalized age: one table shared by the GPU shader and the host paths.

use egui::Color32;
use serde::{Deserialize, Serialize};

use crate::stats::normalized_age;
use crate::step::view::Pixel;

/// Background of dead cells and of the space outside the world.
pub const DEAD: Color32 = Color32::from_rgb(14, 14, 20);

/// How ages become colours.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Colormap {
    /// A continuous ramp: newborn cells bright yellow, the oldest violet (light enough to
    /// stand out on the background).
    Continuous,
    /// The reference app's five brackets of normalized age (0–20 %, …, 80–100 %).
    Buckets,
}

impl Colormap {
    /// Every colormap, as listed in the UI.
    pub const ALL: [Colormap; 2] = [Colormap::Continuous, Colormap::Buckets];

    /// Name shown in the UI.
    pub fn label(self) -> &'static str {
        match self {
            Colormap::Continuous => "Continuous",
            Colormap::Buckets => "5 brackets",
        }
    }
}

/// The five bracket colours, youngest first.
pub const BUCKET_COLOURS: [Color32; 5] = [
    Color32::from_rgb(249, 248, 113),
    Color32::from_rgb(126, 224, 129),
    Color32::from_rgb(46, 196, 182),
    Color32::from_rgb(58, 134, 255),
    Color32::from_rgb(131, 56, 236),
];

/// Distinct colours for plotted series (the Lab's variants, the GPS plot's strategies):
/// Okabe–Ito's colour-blind-safe set and more, each readable on the dark plot background;
/// a series takes the colour of its index.
pub const SERIES_COLOURS: [Color32; 16] = [
    Color32::from_rgb(230, 159, 0),
    Color32::from_rgb(86, 180, 233),
    Color32::from_rgb(0, 158, 115),
    Color32::from_rgb(240, 228, 66),
    Color32::from_rgb(0, 114, 178),
    Color32::from_rgb(213, 94, 0),
    Color32::from_rgb(204, 121, 167),
    Color32::from_rgb(255, 255, 255),
    Color32::from_rgb(150, 150, 150),
    Color32::from_rgb(120, 220, 120),
    Color32::from_rgb(200, 140, 255),
    Color32::from_rgb(255, 130, 130),
    Color32::from_rgb(90, 220, 220),
    Color32::from_rgb(170, 120, 70),
    Color32::from_rgb(150, 200, 60),
    Color32::from_rgb(255, 200, 160),
];

/// Ramp stops of the continuous map, young to old: viridis's yellow, green and teal, then
/// blue and violet lifted so that every colour keeps a 3:1 contrast with [`DEAD`] (viridis
/// ends in a violet of 1.3:1, which made the oldest cells vanish on the background).
const STOPS: [(f32, [u8; 3]); 6] = [
    (0.0, [253, 231, 37]),
    (0.2, [122, 209, 81]),
    (0.4, [34, 168, 132]),
    (0.6, [42, 130, 160]),
    (0.8, [80, 105, 205]),
    (1.0, [150, 90, 240]),
];

/// Colour of normalized age `norm` (0..=100) in `map`.
pub fn colour(map: Colormap, norm: u32) -> Color32 {
    let norm = norm.min(100);
    match map {
        Colormap::Buckets => BUCKET_COLOURS[(norm as usize * 5 / 100).min(4)],
        Colormap::Continuous => {
            let t = norm as f32 / 100.0;
            let i = STOPS
                .iter()
                .rposition(|s| s.0 <= t)
                .unwrap_or(0)
                .min(STOPS.len() - 2);
            let (t0, c0) = STOPS[i];
            let (t1, c1) = STOPS[i + 1];
            let f = ((t - t0) / (t1 - t0)).clamp(0.0, 1.0);
            let mix =
                |a: u8, b: u8| (f32::from(a) + (f32::from(b) - f32::from(a)) * f).round() as u8;
            Color32::from_rgb(mix(c0[0], c1[0]), mix(c0[1], c1[1]), mix(c0[2], c1[2]))
        }
    }
}

/// Colour of a cell of `age` at `generation` (dead cells get [`DEAD`]). The colour counts
/// the generations a cell has survived (`age - 1`), so a newborn or freshly painted cell is
/// bright at any generation — generation 0 included, where every cell would otherwise be
/// "as old as the world" and drawn dark violet on the near-black background. The paint
/// shader (shaders/app/view_paint.wgsl) does the same.
pub fn cell_colour(map: Colormap, age: u32, generation: u64) -> Color32 {
    if age == 0 {
        DEAD
    } else {
        colour(map, normalized_age(age, generation) as u32)
    }
}

/// Colour of a cell in the first dying state (2) of a Generations rule: a warm red, so
/// dying cells read apart from the live ramp (yellow → violet).
pub const DYING_FIRST: Color32 = Color32::from_rgb(232, 86, 62);

/// Colour of a cell in the last dying state (C-1): a dark red just above the background.
pub const DYING_LAST: Color32 = Color32::from_rgb(72, 28, 34);

/// Colour of dying state `state` (2..C-1) of a rule with `states` states (C): from
/// [`DYING_FIRST`] to [`DYING_LAST`]. The paint shader does the same.
pub fn dying_colour(state: u8, states: u16) -> Color32 {
    let span = f32::from(states.max(4) - 3);
    let f = (f32::from(state.max(2) - 2) / span).clamp(0.0, 1.0);
    let mix = |a: u8, b: u8| (f32::from(a) + (f32::from(b) - f32::from(a)) * f).round() as u8;
    Color32::from_rgb(
        mix(DYING_FIRST.r(), DYING_LAST.r()),
        mix(DYING_FIRST.g(), DYING_LAST.g()),
        mix(DYING_FIRST.b(), DYING_LAST.b()),
    )
}

/// Colour of a view pixel (a [`crate::step::view::pixel_value`]) at `generation` under a
/// rule of `states` states.
pub fn pixel_colour(map: Colormap, value: u32, generation: u64, states: u16) -> Color32 {
    match Pixel::decode(value) {
        Pixel::Dead => DEAD,
        Pixel::Dying(state) => dying_colour(state, states),
        Pixel::Alive(age) => cell_colour(map, age, generation),
    }
}

/// Colour of a view pixel in a rule table's own colours (`colours[state]`; dead cells are
/// the background, zoomed-out pixels show their most alive cell as [`pixel_colour`] does).
pub fn state_pixel_colour(colours: &[[u8; 3]], value: u32) -> Color32 {
    let state = match Pixel::decode(value) {
        Pixel::Dead => return DEAD,
        Pixel::Dying(state) => usize::from(state),
        Pixel::Alive(_) => 1,
    };
    let [r, g, b] = colours.get(state).copied().unwrap_or([255, 255, 255]);
    Color32::from_rgb(r, g, b)
}

/// The legend of a rule table: one swatch per state with its `@NAMES` name (the first 32).
pub fn state_legend(ui: &mut egui::Ui, table: &crate::rule::table::RuleTable) {
    ui.horizontal_wrapped(|ui| {
        for (state, (c, name)) in table
            .colors
            .iter()
            .zip(&table.names)
            .enumerate()
            .skip(1)
            .take(32)
        {
            let (rect, _) = ui.allocate_exact_size(egui::vec2(12.0, 12.0), egui::Sense::hover());
            ui.painter()
                .rect_filled(rect, 2.0, Color32::from_rgb(c[0], c[1], c[2]));
            ui.small(format!("{state} {name}"));
        }
        if table.colors.len() > 33 {
            ui.small(format!("… {} states", table.colors.len()));
        }
    });
}

/// The 101 colours of normalized ages 0..=100 as linear-free RGBA floats for the shader.
pub fn table(map: Colormap) -> [[f32; 4]; 101] {
    std::array::from_fn(|i| {
        let c = colour(map, i as u32);
        [c.r(), c.g(), c.b(), 255].map(|v| f32::from(v) / 255.0)
    })
}

/// Draw the legend of `map` (a labelled ramp) into the available width; under a rule with
/// dying states (`states` > 2) a second ramp shows the dying colours.
pub fn legend(ui: &mut egui::Ui, map: Colormap, states: u16) {
    let width = ui.available_width().min(220.0);
    ramp(ui, width, |t| colour(map, (t * 100.0).round() as u32));
    ui.horizontal(|ui| {
        ui.small("newborn");
        ui.add_space((width - 120.0).max(0.0));
        ui.small("age = generation");
    });
    if states > 2 {
        let last = (states - 1).min(255) as u8;
        ramp(ui, width, |t| {
            dying_colour(2 + (t * f32::from(last - 2)).round() as u8, states)
        });
        ui.horizontal(|ui| {
            if last == 2 {
                ui.small("dying (state 2)");
            } else {
                ui.small("dying: state 2");
                ui.add_space((width - 150.0).max(0.0));
                ui.small(format!("state {last}"));
            }
        });
    }
}

/// The legend on the unbounded plane, which keeps no ages: pixels are shaded by how full
/// they are ([`crate::hashlife::draw::density_value`]), a full pixel in the newborn colour.
pub fn density_legend(ui: &mut egui::Ui, map: Colormap) {
    let width = ui.available_width().min(220.0);
    let sparsest = crate::hashlife::draw::density_value(1, 20) - crate::step::view::LIVE_BASE - 1;
    ramp(ui, width, |t| {
        colour(map, (t * sparsest as f32).round() as u32)
    });
    ui.horizontal(|ui| {
        ui.small("full pixel");
        ui.add_space((width - 130.0).max(0.0));
        ui.small("one live cell");
    });
}

/// A 12-point-high ramp of `colour_at(0..=1)` across `width`.
fn ramp(ui: &mut egui::Ui, width: f32, colour_at: impl Fn(f32) -> Color32) {
    let (rect, _) = ui.allocate_exact_size(egui::vec2(width, 12.0), egui::Sense::hover());
    let painter = ui.painter_at(rect);
    let steps = 50;
    for i in 0..steps {
        let x0 = rect.left() + rect.width() * i as f32 / steps as f32;
        let x1 = rect.left() + rect.width() * (i + 1) as f32 / steps as f32;
        let r = egui::Rect::from_min_max(egui::pos2(x0, rect.top()), egui::pos2(x1, rect.bottom()));
        painter.rect_filled(r, 0.0, colour_at(i as f32 / (steps - 1) as f32));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn series_colours_are_all_different() {
        let distinct: std::collections::HashSet<_> = SERIES_COLOURS.iter().collect();
        assert_eq!(distinct.len(), SERIES_COLOURS.len());
        assert!(SERIES_COLOURS.len() >= crate::step::Strategy::ALL.len());
    }

    #[test]
    fn brackets_follow_the_reference_split() {
        assert_eq!(colour(Colormap::Buckets, 0), BUCKET_COLOURS[0]);
        assert_eq!(colour(Colormap::Buckets, 19), BUCKET_COLOURS[0]);
        assert_eq!(colour(Colormap::Buckets, 20), BUCKET_COLOURS[1]);
        assert_eq!(colour(Colormap::Buckets, 100), BUCKET_COLOURS[4]);
    }

    #[test]
    fn the_ramp_runs_from_yellow_to_violet_through_its_stops() {
        assert_eq!(
            colour(Colormap::Continuous, 0),
            Color32::from_rgb(253, 231, 37)
        );
        assert_eq!(
            colour(Colormap::Continuous, 100),
            Color32::from_rgb(150, 90, 240)
        );
        assert_eq!(
            colour(Colormap::Continuous, 40),
            Color32::from_rgb(34, 168, 132)
        );
        assert_eq!(cell_colour(Colormap::Continuous, 0, 10), DEAD);
    }

    /// WCAG contrast ratio of two colours.
    fn contrast(a: Color32, b: Color32) -> f64 {
        let luminance = |c: Color32| {
            let lin = |v: u8| {
                let v = f64::from(v) / 255.0;
                if v <= 0.03928 {
                    v / 12.92
                } else {
                    ((v + 0.055) / 1.055).powf(2.4)
                }
            };
            0.2126 * lin(c.r()) + 0.7152 * lin(c.g()) + 0.0722 * lin(c.b())
        };
        let (la, lb) = (luminance(a), luminance(b));
        (la.max(lb) + 0.05) / (la.min(lb) + 0.05)
    }

    #[test]
    fn every_age_colour_stands_out_on_the_background() {
        for map in Colormap::ALL {
            for norm in 0..=100 {
                let c = colour(map, norm);
                assert!(
                    contrast(c, DEAD) >= 3.0,
                    "{map:?} at {norm} %: {c:?} is {:.2}:1 on the background",
                    contrast(c, DEAD)
                );
            }
        }
    }

    #[test]
    fn newborn_and_painted_cells_are_bright_at_any_generation() {
        let newborn = Color32::from_rgb(253, 231, 37);
        for generation in [0, 1, 7, 1_000_000] {
            assert_eq!(cell_colour(Colormap::Continuous, 1, generation), newborn);
        }
        // A cell alive since generation 0 is the oldest.
        assert_eq!(
            cell_colour(Colormap::Continuous, 101, 100),
            Color32::from_rgb(150, 90, 240)
        );
    }
}

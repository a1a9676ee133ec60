//! Drawing a window of the world at screen resolution, where the state lives.
//!
//! The app never reads a whole device-resident world back to draw it. It asks the stepper
//! for a [`ViewRequest`]: one `u32` per screen pixel holding the largest [`pixel_value`]
//! among the cells under that pixel (0 when all are dead or the pixel is outside the
//! world). A cell's value orders dead < dying < alive, so zoomed out a pixel shows a cell
//! block as alive (its oldest cell) if any cell in it is, else as dying (its freshest dying
//! state); zoomed in, each pixel samples exactly one cell. [`render_host`] is the CPU
//! definition every device implementation is tested against.

use rayon::prelude::*;

use crate::world::World;

/// A window onto the world, sampled at `width_px × height_px` pixels.
/// Coordinates are `f64` so the same request serves the unbounded plane: positions are
/// exact to ±2^53 cells.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ViewRequest {
    /// World x (in cells, may be fractional or negative) at the left edge of pixel column 0.
    pub x0: f64,
    /// World y at the top edge of pixel row 0.
    pub y0: f64,
    /// Cells per pixel along both axes (below 1 when zoomed in).
    pub cells_per_pixel: f64,
    /// Output width in pixels.
    pub width_px: u32,
    /// Output height in pixels.
    pub height_px: u32,
}

impl ViewRequest {
    /// Number of output pixels.
    pub fn pixels(&self) -> usize {
        self.width_px as usize * self.height_px as usize
    }

    /// The half-open range of cells pixel `p` covers along one axis starting at `origin`,
    /// clipped to `0..extent` (empty when the pixel lies outside the world). Always at least
    /// one cell wide before clipping, so zoomed-in pixels sample one cell.
    pub fn cell_span(origin: f64, cells_per_pixel: f64, p: u32, extent: u32) -> (u32, u32) {
        let start = (origin + f64::from(p) * cells_per_pixel).floor();
        let end = (origin + f64::from(p + 1) * cells_per_pixel)
            .floor()
            .max(start + 1.0);
        let clip = |v: f64| v.clamp(0.0, f64::from(extent)) as u32;
        (clip(start), clip(end))
    }
}

impl ViewRequest {
    /// Every pixel column's cell span in a world `width` wide (what device kernels read).
    pub fn column_spans(&self, width: u32) -> Vec<[u32; 2]> {
        spans(self.x0, self.cells_per_pixel, self.width_px, width)
    }

    /// Every pixel row's cell span in a world `height` tall.
    pub fn row_spans(&self, height: u32) -> Vec<[u32; 2]> {
        spans(self.y0, self.cells_per_pixel, self.height_px, height)
    }
}

/// View values below this are dying states; live cells are their age plus this (the same
/// constant and encoding for the device kernels: shaders/gpu/view_value.wgsl).
pub const LIVE_BASE: u32 = 256;

/// The view value of one cell: 0 dead, `LIVE_BASE - state` for a dying Generations state
/// (2..=255), `age + LIVE_BASE` (saturating) for a live cell of `age`. Every device view
/// kernel writes the maximum of these over a pixel's cells.
#[inline]
pub fn pixel_value(age: u32, dying: u8) -> u32 {
    if age > 0 {
        age.saturating_add(LIVE_BASE)
    } else if dying > 0 {
        LIVE_BASE - u32::from(dying)
    } else {
        0
    }
}

/// What a view pixel shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pixel {
    /// No live or dying cell under the pixel (or outside the world).
    Dead,
    /// Dying cells only; the freshest (lowest) dying state.
    Dying(u8),
    /// A live cell; the oldest age (ages within `LIVE_BASE` of `u32::MAX` read as that).
    Alive(u32),
}

impl Pixel {
    /// Decode a view value written by [`pixel_value`] (or a maximum of them).
    #[inline]
    pub fn decode(value: u32) -> Pixel {
        if value >= LIVE_BASE {
            Pixel::Alive(value - LIVE_BASE)
        } else if value > 0 {
            Pixel::Dying((LIVE_BASE - value) as u8)
        } else {
            Pixel::Dead
        }
    }
}

fn spans(origin: f64, cells_per_pixel: f64, count: u32, extent: u32) -> Vec<[u32; 2]> {
    (0..count)
        .map(|p| {
            let (a, b) = ViewRequest::cell_span(origin, cells_per_pixel, p, extent);
            [a, b]
        })
        .collect()
}

/// The CPU definition of a view: `out[py * width_px + px]` = largest [`pixel_value`] of the
/// cells under the pixel.
pub fn render_host(world: &World, request: &ViewRequest, out: &mut [u32]) {
    let (w, h) = (world.width(), world.height());
    let (ages, dying) = (world.ages(), world.dying());
    let width_px = request.width_px as usize;
    let columns: Vec<(u32, u32)> = (0..request.width_px)
        .map(|px| ViewRequest::cell_span(request.x0, request.cells_per_pixel, px, w))
        .collect();
    out[..request.pixels()]
        .par_chunks_mut(width_px.max(1))
        .enumerate()
        .for_each(|(py, row_out)| {
            let (y_start, y_end) =
                ViewRequest::cell_span(request.y0, request.cells_per_pixel, py as u32, h);
            for (pixel, &(x_start, x_end)) in row_out.iter_mut().zip(&columns) {
                let mut best = 0;
                for y in y_start..y_end {
                    let first = y as usize * w as usize + x_start as usize;
                    let cells = (x_end - x_start) as usize;
                    for (k, &age) in ages[first..first + cells].iter().enumerate() {
                        let d = dying.get(first + k).copied().unwrap_or(0);
                        best = best.max(pixel_value(age, d));
                    }
                }
                *pixel = best;
            }
        });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rule::Rule;
    use crate::world::{CellEdit, Topology};

    fn world_with(cells: &[(u32, u32)]) -> World {
        let mut world = World::new(8, 6, Topology::Torus, Rule::CONWAY).unwrap();
        for &(x, y) in cells {
            world.apply_edit(CellEdit { x, y, alive: true });
        }
        world
    }

    #[test]
    fn zoomed_in_pixels_sample_one_cell_each() {
        let world = world_with(&[(2, 1)]);
        let request = ViewRequest {
            x0: 2.0,
            y0: 1.0,
            cells_per_pixel: 0.5,
            width_px: 4,
            height_px: 2,
        };
        let mut out = vec![9; 8];
        render_host(&world, &request, &mut out);
        let a = pixel_value(1, 0);
        assert_eq!(out, vec![a, a, 0, 0, a, a, 0, 0]);
    }

    #[test]
    fn zoomed_out_pixels_show_any_live_cell_and_outside_is_dead() {
        let world = world_with(&[(7, 5), (0, 0)]);
        let request = ViewRequest {
            x0: 0.0,
            y0: 0.0,
            cells_per_pixel: 4.0,
            width_px: 3,
            height_px: 2,
        };
        let mut out = vec![9; 6];
        render_host(&world, &request, &mut out);
        let a = pixel_value(1, 0);
        assert_eq!(out, vec![a, 0, 0, 0, a, 0]);
    }

    #[test]
    fn a_pixel_holds_the_oldest_age_under_it() {
        let mut world = world_with(&[]);
        world.ages_mut()[0] = 3;
        world.ages_mut()[1] = 7;
        let request = ViewRequest {
            x0: 0.0,
            y0: 0.0,
            cells_per_pixel: 2.0,
            width_px: 1,
            height_px: 1,
        };
        let mut out = vec![0; 1];
        render_host(&world, &request, &mut out);
        assert_eq!(out, vec![pixel_value(7, 0)]);
    }

    #[test]
    fn values_order_dead_dying_alive_and_decode_back() {
        assert_eq!(Pixel::decode(pixel_value(0, 0)), Pixel::Dead);
        assert_eq!(Pixel::decode(pixel_value(0, 2)), Pixel::Dying(2));
        assert_eq!(Pixel::decode(pixel_value(0, 255)), Pixel::Dying(255));
        assert_eq!(Pixel::decode(pixel_value(7, 0)), Pixel::Alive(7));
        assert!(pixel_value(1, 0) > pixel_value(0, 2));
        assert!(pixel_value(0, 2) > pixel_value(0, 3));
        assert_eq!(pixel_value(u32::MAX, 0), u32::MAX);
    }

    #[test]
    fn a_dying_cell_shows_unless_a_live_one_shares_the_pixel() {
        let rule = "/2/4".parse().unwrap();
        let mut world = World::new(8, 6, Topology::Torus, rule).unwrap();
        world.apply_edit(CellEdit {
            x: 0,
            y: 0,
            alive: true,
        });
        world.dying_mut()[2] = 3;
        world.dying_mut()[5] = 2;
        let request = ViewRequest {
            x0: 0.0,
            y0: 0.0,
            cells_per_pixel: 4.0,
            width_px: 2,
            height_px: 1,
        };
        let mut out = vec![9; 2];
        render_host(&world, &request, &mut out);
        assert_eq!(out, vec![pixel_value(1, 0), pixel_value(0, 2)]);
    }
}

//! Drawing a window of the world at screen resolution, where the state lives.
//!
//! The app never reads a whole device-resident world back to draw it. It asks the stepper
//! for a [`ViewRequest`]: one `u32` per screen pixel holding the largest age among the cells
//! under that pixel (0 when all are dead or the pixel is outside the world). Zoomed out, a
//! pixel therefore shows a cell block as alive if any cell in it is; zoomed in, each pixel
//! samples exactly one cell. [`render_host`] is the CPU definition every device
//! implementation is tested against.

use bytemuck::{Pod, Zeroable};
use rayon::prelude::*;

use crate::world::World;

/// A window onto the world, sampled at `width_px × height_px` pixels.
#[derive(Debug, Clone, Copy, PartialEq, Pod, Zeroable)]
#[repr(C)]
pub struct ViewRequest {
    /// World x (in cells, may be fractional or negative) at the left edge of pixel column 0.
    pub x0: f32,
    /// World y at the top edge of pixel row 0.
    pub y0: f32,
    /// Cells per pixel along both axes (below 1 when zoomed in).
    pub cells_per_pixel: f32,
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
    pub fn cell_span(origin: f32, cells_per_pixel: f32, p: u32, extent: u32) -> (u32, u32) {
        let start = (origin + p as f32 * cells_per_pixel).floor();
        let end = (origin + (p + 1) as f32 * cells_per_pixel)
            .floor()
            .max(start + 1.0);
        let clip = |v: f32| v.clamp(0.0, extent as f32) as u32;
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

fn spans(origin: f32, cells_per_pixel: f32, count: u32, extent: u32) -> Vec<[u32; 2]> {
    (0..count)
        .map(|p| {
            let (a, b) = ViewRequest::cell_span(origin, cells_per_pixel, p, extent);
            [a, b]
        })
        .collect()
}

/// The CPU definition of a view: `out[py * width_px + px]` = largest age under the pixel.
pub fn render_host(world: &World, request: &ViewRequest, out: &mut [u32]) {
    let (w, h) = (world.width(), world.height());
    let ages = world.ages();
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
                    let row = &ages[y as usize * w as usize..][..w as usize];
                    for &age in &row[x_start as usize..x_end as usize] {
                        best = best.max(age);
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
        assert_eq!(out, vec![1, 1, 0, 0, 1, 1, 0, 0]);
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
        assert_eq!(out, vec![1, 0, 0, 0, 1, 0]);
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
        assert_eq!(out, vec![7]);
    }
}

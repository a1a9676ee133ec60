//! Drawing the hashed universe into a viewport, from the quadtree: at a scale of `2^k`
//! cells per pixel each level-`k` node is one pixel, coloured by how full it is, so a
//! pattern of 10^12 cells spread over 2^40 a side draws by visiting the nodes that meet the
//! view, never its cells (Golly's `draw` walks the tree the same way).

use std::collections::HashMap;

use super::HashUniverse;
use super::cells::{corner, count};
use super::leaves::Leaves;
use crate::step::view::{LIVE_BASE, ViewRequest};

/// The generation a plane view image is painted at: with it the painter's normalized age
/// of a pixel value `LIVE_BASE + 1 + n` is `n`, the density shade [`density_value`] chose.
pub const DENSITY_GENERATION: u64 = 100;

/// Darkest shade (normalized age) a pixel with any live cell gets; a full pixel gets 0,
/// the newborn colour, so sparse regions stay visible on the dark background.
const SPARSEST_SHADE: f64 = 60.0;

/// The view value of a pixel of `side × side` cells holding `count` live ones: 0 when
/// empty, else a live value whose normalized age (at [`DENSITY_GENERATION`]) falls from
/// [`SPARSEST_SHADE`] for one cell to 0 for a full pixel, on a log scale.
pub fn density_value(count: u64, side_log2: u32) -> u32 {
    if count == 0 {
        return 0;
    }
    let cells = (4f64).powi(side_log2 as i32);
    let full = ((count as f64 + 1.0).log2() / (cells + 1.0).log2()).min(1.0);
    LIVE_BASE + 1 + (SPARSEST_SHADE * (1.0 - full)).round() as u32
}

/// The scale a plane view is drawn at for `cells_per_pixel`: `2^k` cells per pixel with
/// `k` the smallest that shows at least that many (0 when zoomed in).
pub fn scale_log2(cells_per_pixel: f64) -> u32 {
    if cells_per_pixel <= 1.0 {
        0
    } else {
        (cells_per_pixel.log2().ceil() as u32).min(126)
    }
}

impl<L: Leaves> HashUniverse<L> {
    /// Draw `request` into `out` (`request.pixels()` values): pixel `(px, py)` covers the
    /// `2^k × 2^k` cells from `(x0 + px·2^k, y0 + py·2^k)`, where `2^k` is
    /// [`scale_log2`] of the request's cells per pixel and `(x0, y0)` its corner rounded
    /// down to a multiple of `2^k`; its value is [`density_value`] of their live cells.
    pub fn draw(&self, request: &ViewRequest, out: &mut [u32]) {
        let k = scale_log2(request.cells_per_pixel);
        let (w, h) = (request.width_px as usize, request.height_px as usize);
        let align = |v: f64| ((v.floor() as i128) >> k) << k;
        let view = View {
            x0: align(request.x0),
            y0: align(request.y0),
            k,
            w,
            h,
        };
        let mut counts = vec![0u64; w * h];
        let (root, level) = self.root();
        let c = corner(level);
        let mut memo = HashMap::new();
        self.draw_node(root, level, c, c, &view, &mut counts, &mut memo);
        for (o, &n) in out.iter_mut().zip(&counts) {
            *o = density_value(n, k);
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn draw_node(
        &self,
        id: u32,
        level: u8,
        nx: i128,
        ny: i128,
        view: &View,
        counts: &mut [u64],
        memo: &mut HashMap<u32, u128>,
    ) {
        let store = self.store();
        let side = 1i128 << level;
        let (span_x, span_y) = ((view.w as i128) << view.k, (view.h as i128) << view.k);
        if store.is_empty(id)
            || nx + side <= view.x0
            || ny + side <= view.y0
            || nx >= view.x0 + span_x
            || ny >= view.y0 + span_y
        {
            return;
        }
        if u32::from(level) <= view.k {
            // A node no larger than a pixel: it lies inside one (both are aligned).
            let p = count::<L>(store, id, memo, L::occupied);
            view.add(counts, nx, ny, u64::try_from(p).unwrap_or(u64::MAX));
            return;
        }
        let node = store.node(id);
        if level == L::LEVEL {
            L::for_each(&node.child, &mut |x, y, _| {
                view.add(counts, nx + i128::from(x), ny + i128::from(y), 1);
            });
            return;
        }
        let half = side / 2;
        let child = node.child;
        for (q, &c) in child.iter().enumerate() {
            let (qx, qy) = ((q % 2) as i128 * half, (q / 2) as i128 * half);
            self.draw_node(c, level - 1, nx + qx, ny + qy, view, counts, memo);
        }
    }
}

/// The aligned pixel grid a view is drawn into.
struct View {
    x0: i128,
    y0: i128,
    k: u32,
    w: usize,
    h: usize,
}

impl View {
    /// Add `n` live cells at cell `(x, y)` to its pixel, if the pixel is in the view.
    fn add(&self, counts: &mut [u64], x: i128, y: i128, n: u64) {
        let (px, py) = ((x - self.x0) >> self.k, (y - self.y0) >> self.k);
        if px >= 0 && py >= 0 && (px as usize) < self.w && (py as usize) < self.h {
            let i = py as usize * self.w + px as usize;
            counts[i] = counts[i].saturating_add(n);
        }
    }
}

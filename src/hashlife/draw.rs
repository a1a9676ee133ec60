//! Drawing the hashed universe into a viewport, from the quadtree: at a scale of `2^k`
//! cells per pixel each level-`k` node is one pixel, so a pattern of 10^12 cells spread over
//! 2^40 a side draws by visiting the nodes that meet the view, never its cells (Golly's
//! `draw` walks the tree the same way).
//!
//! A pixel's value follows the grid's view values ([`crate::step::view::pixel_value`]): a
//! pixel holding cells in state 1 is live, shaded by how full of them it is; one holding
//! only other states (a rule table's wire, a Generations rule's dying cells) shows the
//! lowest of them, so a many-state rule is drawn in its own colours at every zoom.

use std::collections::HashMap;

use super::HashUniverse;
use super::cells::{corner, count};
use super::leaves::Leaves;
use super::store::Store;
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
    /// down to a multiple of `2^k`; its value is [`density_value`] of their cells in state 1,
    /// or, with none, the view value of the lowest other state among them (see the module
    /// docs).
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
        let mut pixels = Pixels {
            live: vec![0u64; w * h],
            other: vec![0u8; w * h],
        };
        let (root, level) = self.root();
        let c = corner(level);
        let mut memo = Memo::default();
        self.draw_node(root, level, c, c, &view, &mut pixels, &mut memo);
        for ((o, &n), &other) in out.iter_mut().zip(&pixels.live).zip(&pixels.other) {
            *o = match (n, other) {
                (0, 0) => 0,
                (0, state) => LIVE_BASE - u32::from(state),
                (n, _) => density_value(n, k),
            };
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
        pixels: &mut Pixels,
        memo: &mut Memo,
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
            let live = count::<L>(store, id, &mut memo.live, L::live);
            let other = lowest_other::<L>(store, id, &mut memo.other);
            view.add(
                pixels,
                nx,
                ny,
                u64::try_from(live).unwrap_or(u64::MAX),
                other,
            );
            return;
        }
        let node = store.node(id);
        if level == L::LEVEL {
            L::for_each(&node.child, &mut |x, y, state| {
                let (x, y) = (nx + i128::from(x), ny + i128::from(y));
                match state {
                    1 => view.add(pixels, x, y, 1, 0),
                    s => view.add(pixels, x, y, 0, s),
                }
            });
            return;
        }
        let half = side / 2;
        let child = node.child;
        for (q, &c) in child.iter().enumerate() {
            let (qx, qy) = ((q % 2) as i128 * half, (q / 2) as i128 * half);
            self.draw_node(c, level - 1, nx + qx, ny + qy, view, pixels, memo);
        }
    }
}

/// Per pixel: cells in state 1, and the lowest other state present (0: none).
struct Pixels {
    live: Vec<u64>,
    other: Vec<u8>,
}

/// What a draw memoises per node: its cells in state 1, and its lowest other state.
#[derive(Default)]
struct Memo {
    live: HashMap<u32, u128>,
    other: HashMap<u32, u8>,
}

/// The lowest state above 1 among the cells of `id` (0: none), memoised in `memo`.
fn lowest_other<L: Leaves>(store: &Store, id: u32, memo: &mut HashMap<u32, u8>) -> u8 {
    let node = store.node(id);
    if node.level == L::LEVEL {
        let mut lowest = 0u8;
        L::for_each(&node.child, &mut |_, _, s| {
            if s >= 2 && (lowest == 0 || s < lowest) {
                lowest = s;
            }
        });
        return lowest;
    }
    if store.is_empty(id) {
        return 0;
    }
    if let Some(&s) = memo.get(&id) {
        return s;
    }
    let lowest = node
        .child
        .into_iter()
        .map(|c| lowest_other::<L>(store, c, memo))
        .filter(|&s| s != 0)
        .min()
        .unwrap_or(0);
    memo.insert(id, lowest);
    lowest
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
    /// Add `n` cells in state 1 and a cell in state `other` (0: none) at cell `(x, y)` to
    /// its pixel, if the pixel is in the view.
    fn add(&self, pixels: &mut Pixels, x: i128, y: i128, n: u64, other: u8) {
        let (px, py) = ((x - self.x0) >> self.k, (y - self.y0) >> self.k);
        if px >= 0 && py >= 0 && (px as usize) < self.w && (py as usize) < self.h {
            let i = py as usize * self.w + px as usize;
            pixels.live[i] = pixels.live[i].saturating_add(n);
            let o = &mut pixels.other[i];
            if other != 0 && (*o == 0 || other < *o) {
                *o = other;
            }
        }
    }
}

//! How cells lie on screen: the square grid, Golly's hexagonal layout (hexagonal rules) and
//! its triangular one (Larger than Life's `NL` and `L` suffix), as *display* coordinates in
//! which one unit is one cell's width. The paint shader (shaders/app/view_paint.wgsl) finds
//! a pixel's cell with the same arithmetic as [`CellLayout::cell_at`].

/// Rows of the hexagonal and triangular layouts lie this far apart (cells one unit wide
/// are then regular hexagons and equilateral triangles).
pub const ROW: f64 = 0.866_025_403_784_438_6;

/// A layout of cells on screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CellLayout {
    /// Square cells, display coordinates equal to cell coordinates.
    #[default]
    Square,
    /// Hexagons at `(x − y/2, y·√3/2)`: row `y + 1` sits half a cell left of row `y`, so a
    /// cell's six neighbours of Golly's hexagonal neighbourhood (NW, N, W, E, S, SE on the
    /// square grid) surround it.
    Hexagonal,
    /// Triangles one unit wide, cell `(x, y)` spanning `x/2 … x/2 + 1` across row `y`:
    /// pointing down where `x + y` is even, up where it is odd, so each row's triangles
    /// alternate and a cell's twelve vertex neighbours are those of Golly's `NL` at range 1.
    Triangular,
}

impl CellLayout {
    /// The code the paint shader's `layout` field takes.
    pub fn shader_code(self) -> u32 {
        match self {
            CellLayout::Square => 0,
            CellLayout::Hexagonal => 1,
            CellLayout::Triangular => 2,
        }
    }

    /// Display coordinates of cell coordinates `(x, y)` (fractional: `(x + ½, y + ½)` is
    /// the cell's centre; on the triangular layout the middle of its row span).
    pub fn to_display(self, x: f64, y: f64) -> [f64; 2] {
        match self {
            CellLayout::Square => [x, y],
            CellLayout::Hexagonal => [x - y / 2.0, y * ROW],
            CellLayout::Triangular => [x / 2.0 + 0.25, y * ROW],
        }
    }

    /// Cell coordinates of display coordinates `(u, v)` (the inverse of
    /// [`CellLayout::to_display`]).
    pub fn from_display(self, u: f64, v: f64) -> [f64; 2] {
        match self {
            CellLayout::Square => [u, v],
            CellLayout::Hexagonal => {
                let y = v / ROW;
                [u + y / 2.0, y]
            }
            CellLayout::Triangular => [2.0 * (u - 0.25), v / ROW],
        }
    }

    /// The cell whose square, hexagon or triangle holds display point `(u, v)`.
    pub fn cell_at(self, u: f64, v: f64) -> (i64, i64) {
        match self {
            CellLayout::Square => (u.floor() as i64, v.floor() as i64),
            CellLayout::Hexagonal => hex_cell_at(u, v),
            CellLayout::Triangular => tri_cell_at(u, v),
        }
    }
}

/// The cell of the hexagonal layout whose hexagon holds display point `(u, v)`: the nearest
/// cell centre, found among the two nearest rows (centre of `(x, y)`:
/// `(x + 1/4 − y/2, (y + 1/2)·√3/2)`).
pub fn hex_cell_at(u: f64, v: f64) -> (i64, i64) {
    let first = (v / ROW - 0.5).floor();
    let mut best = (f64::MAX, 0, 0);
    for y in [first, first + 1.0] {
        let x = (u - 0.25 + y / 2.0).round();
        let (du, dv) = (u - (x + 0.25 - y / 2.0), v - (y + 0.5) * ROW);
        let d = du * du + dv * dv;
        if d < best.0 {
            best = (d, x as i64, y as i64);
        }
    }
    (best.1, best.2)
}

/// The cell of the triangular layout whose triangle holds display point `(u, v)`. In row
/// `y` the point lies in the half-unit strip `k = ⌊2u⌋`, shared by cells `k − 1` and `k`;
/// the edge between them is cell `k`'s left side, rising to the right when `k` points
/// down (`k + y` even) and falling when it points up.
pub fn tri_cell_at(u: f64, v: f64) -> (i64, i64) {
    let row = v / ROW;
    let y = row.floor();
    let down_fraction = row - y; // 0 at the row's top, 1 at its bottom
    let s = 2.0 * u;
    let k = s.floor();
    let across = s - k; // 0 at the strip's left, 1 at its right
    let (k, y) = (k as i64, y as i64);
    let k_points_down = (k + y).rem_euclid(2) == 0;
    let edge = if k_points_down {
        down_fraction
    } else {
        1.0 - down_fraction
    };
    (if across >= edge { k } else { k - 1 }, y)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The centroid of triangle `(x, y)`: a third of the way from its flat side to its
    /// apex.
    fn centroid(x: i64, y: i64) -> (f64, f64) {
        let u = x as f64 / 2.0 + 0.5;
        let down = (x + y).rem_euclid(2) == 0;
        let v = (y as f64 + if down { 1.0 / 3.0 } else { 2.0 / 3.0 }) * ROW;
        (u, v)
    }

    #[test]
    fn triangles_hold_their_cells_and_touch_golly_s_twelve_neighbours() {
        for (x, y) in [(0, 0), (1, 0), (5, 3), (-4, 7), (-3, -2), (12, 5)] {
            let (u, v) = centroid(x, y);
            assert_eq!(tri_cell_at(u, v), (x, y), "centroid of {x},{y}");
            // Points near each vertex, pulled a little towards the centroid, stay inside.
            let down = (x + y).rem_euclid(2) == 0;
            let left = x as f64 / 2.0;
            let (top, bottom) = (y as f64 * ROW, (y + 1) as f64 * ROW);
            let vertices = if down {
                [(left, top), (left + 1.0, top), (left + 0.5, bottom)]
            } else {
                [(left + 0.5, top), (left, bottom), (left + 1.0, bottom)]
            };
            for (vu, vv) in vertices {
                let (pu, pv) = (vu + (u - vu) * 0.1, vv + (v - vv) * 0.1);
                assert_eq!(tri_cell_at(pu, pv), (x, y), "near a vertex of {x},{y}");
            }
            // The cells sharing a vertex with this one are Golly's NL at range 1: rows
            // above and below as wide as the neighbourhood says (5 on the flat side, 3
            // at the apex, 5 in its own row).
            // Six triangles meet at a vertex, each a 60° wedge: probes every 45° (turned
            // off the edges) find every one.
            let touches = |cell: (i64, i64)| {
                vertices.iter().any(|&(vu, vv)| {
                    (0..8).any(|k| {
                        let angle = (10.0 + 45.0 * f64::from(k)).to_radians();
                        tri_cell_at(vu + 0.01 * angle.cos(), vv + 0.01 * angle.sin()) == cell
                    })
                })
            };
            let neighbourhood = crate::rule::ltl::Neighbourhood::Triangular.cells(1);
            for dy in -2..=2 {
                for dx in -3..=3 {
                    if (dx, dy) == (0, 0) {
                        continue;
                    }
                    // Golly flips the shape for upward cells.
                    let shape_dy = if down { dy } else { -dy };
                    let expected = neighbourhood.contains(&(dx as i32, shape_dy as i32));
                    assert_eq!(
                        touches((x + dx, y + dy)),
                        expected,
                        "{x},{y} ({}) and its neighbour {dx},{dy}",
                        if down { "down" } else { "up" }
                    );
                }
            }
        }
    }

    #[test]
    fn layouts_round_trip() {
        for layout in [
            CellLayout::Square,
            CellLayout::Hexagonal,
            CellLayout::Triangular,
        ] {
            let [u, v] = layout.to_display(12.5, -7.25);
            let [x, y] = layout.from_display(u, v);
            assert!(
                (x - 12.5).abs() < 1e-9 && (y + 7.25).abs() < 1e-9,
                "{layout:?}"
            );
        }
    }
}

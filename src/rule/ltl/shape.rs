//! The neighbourhoods of Larger than Life: which cells within range r a cell counts, with
//! what weight, exactly as Golly's `ltlalgo` counts them (checked against its `fast_*`
//! loops and `max_neighbors`).
//!
//! Golly's count for a cell always includes the cell itself where the shape covers it (the
//! survival limits of rules without the middle cell are shifted by one instead), so every
//! [`Shape`] here lists the centre too when Golly's loops read it.

/// A neighbourhood type, by Golly's letter after `N`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Neighbourhood {
    /// `M`: the (2r+1)² square.
    Moore,
    /// `N`: the diamond |dx| + |dy| ≤ r.
    VonNeumann,
    /// `C`: the disc dx² + dy² ≤ r² + r.
    Circular,
    /// `2`: the Euclidean disc dx² + dy² ≤ r².
    L2,
    /// `+`: the centre row and column.
    Cross,
    /// `X`: the two diagonals.
    Saltire,
    /// `*`: cross and saltire.
    Star,
    /// `#`: the rows ±1 and the columns ±1.
    Hash,
    /// `B`: the cells with dx + dy odd (plus the cell itself).
    Checkerboard,
    /// `D`: the cells with dx + dy even.
    AlignedCheckerboard,
    /// `H`: Golly's hexagon on the square grid (the square minus two corner triangles).
    Hexagonal,
    /// `A`: the hexagonal grid's three axes.
    Asterisk,
    /// `3`: three of the hexagonal grid's half-axes.
    Tripod,
    /// `G`: weights (r+1−|dx|)(r+1−|dy|), the cell itself counting one more when occupied.
    Gaussian,
    /// `L`: the triangle's neighbours on Golly's triangular grid, rows |dy| ≤ r: for a
    /// downward cell |dx| ≤ 2r + 1 − |dy| above it and |dx| ≤ 2r − dy from its own row down
    /// (an upward cell's is the same turned upside down).
    Triangular,
    /// `@…`: cells given as hex digits (the centre always counts).
    Custom {
        /// The hex digits as written.
        hex: String,
        /// The cells, centre included.
        cells: Vec<(i32, i32)>,
    },
    /// `W…`: a weight per cell of the square, optionally a weight per state.
    Weighted {
        /// The hex digits as written (neighbourhood weights, then `,` and state weights).
        hex: String,
        /// (2r+1)² weights, row-major from the north-west corner.
        weights: Vec<i32>,
        /// One weight per state, if given.
        state_weights: Option<Vec<i32>>,
    },
}

impl Neighbourhood {
    /// Golly's letter for the type.
    pub fn letter(&self) -> char {
        match self {
            Neighbourhood::Moore => 'M',
            Neighbourhood::VonNeumann => 'N',
            Neighbourhood::Circular => 'C',
            Neighbourhood::L2 => '2',
            Neighbourhood::Cross => '+',
            Neighbourhood::Saltire => 'X',
            Neighbourhood::Star => '*',
            Neighbourhood::Hash => '#',
            Neighbourhood::Checkerboard => 'B',
            Neighbourhood::AlignedCheckerboard => 'D',
            Neighbourhood::Hexagonal => 'H',
            Neighbourhood::Asterisk => 'A',
            Neighbourhood::Tripod => '3',
            Neighbourhood::Gaussian => 'G',
            Neighbourhood::Triangular => 'L',
            Neighbourhood::Custom { .. } => '@',
            Neighbourhood::Weighted { .. } => 'W',
        }
    }

    /// What follows the letter in the rule (the digits of `@` and `W`).
    pub fn data(&self) -> &str {
        match self {
            Neighbourhood::Custom { hex, .. } | Neighbourhood::Weighted { hex, .. } => hex,
            _ => "",
        }
    }

    /// The name Golly's help gives the type.
    pub fn name(&self) -> &'static str {
        match self {
            Neighbourhood::Moore => "Moore",
            Neighbourhood::VonNeumann => "von Neumann",
            Neighbourhood::Circular => "circular",
            Neighbourhood::L2 => "L2 (Euclidean)",
            Neighbourhood::Cross => "cross",
            Neighbourhood::Saltire => "saltire",
            Neighbourhood::Star => "star",
            Neighbourhood::Hash => "hash",
            Neighbourhood::Checkerboard => "checkerboard",
            Neighbourhood::AlignedCheckerboard => "aligned checkerboard",
            Neighbourhood::Hexagonal => "hexagonal",
            Neighbourhood::Asterisk => "asterisk",
            Neighbourhood::Tripod => "tripod",
            Neighbourhood::Gaussian => "Gaussian",
            Neighbourhood::Triangular => "triangular",
            Neighbourhood::Custom { .. } => "custom",
            Neighbourhood::Weighted { .. } => "weighted",
        }
    }

    /// Golly's `max_neighbors`: the largest count outside the cell itself, the bound of the
    /// S and B limits.
    pub fn max_count(&self, r: i32) -> i32 {
        let side = 2 * r + 1;
        match self {
            Neighbourhood::Moore => side * side - 1,
            Neighbourhood::VonNeumann => 2 * r * (r + 1),
            Neighbourhood::Circular | Neighbourhood::L2 => self.cells(r).len() as i32 - 1,
            Neighbourhood::Cross | Neighbourhood::Saltire => 4 * r,
            Neighbourhood::Star | Neighbourhood::Hash => 8 * r,
            Neighbourhood::Hexagonal => side * side - r * (r + 1) - 1,
            Neighbourhood::Checkerboard | Neighbourhood::AlignedCheckerboard => {
                (side * side - 1) / 2
            }
            Neighbourhood::Tripod => 3 * r,
            Neighbourhood::Asterisk => 6 * r,
            Neighbourhood::Gaussian => (r + 1).pow(4),
            Neighbourhood::Triangular => 6 * r * r + 6 * r,
            Neighbourhood::Custom { cells, .. } => cells.len() as i32 - 1,
            Neighbourhood::Weighted {
                weights,
                state_weights,
                ..
            } => {
                let top = state_weights
                    .as_ref()
                    .map_or(1, |w| w.iter().copied().max().unwrap_or(0));
                weights.iter().filter(|&&w| w > 0).map(|w| w * top).sum()
            }
        }
    }

    /// The cells counted with weight one (Gaussian and weighted shapes: every cell of the
    /// square with a non-zero weight), centre included where Golly's loops read it.
    pub fn cells(&self, r: i32) -> Vec<(i32, i32)> {
        self.weighted_cells(r)
            .into_iter()
            .map(|(dx, dy, _)| (dx, dy))
            .collect()
    }

    /// How far the neighbourhood of range `r` reaches along either axis (the triangle's
    /// rows are twice as wide as they are many).
    pub fn reach(&self, r: i32) -> i32 {
        match self {
            Neighbourhood::Triangular => 2 * r,
            _ => r,
        }
    }

    /// Every counted cell with its weight (one for unweighted shapes).
    pub fn weighted_cells(&self, r: i32) -> Vec<(i32, i32, i32)> {
        let mut out = Vec::new();
        let reach = self.reach(r);
        let square = -reach..=reach;
        for dy in square.clone() {
            for dx in square.clone() {
                let (ax, ay) = (dx.abs(), dy.abs());
                let weight = match self {
                    Neighbourhood::Moore => 1,
                    Neighbourhood::VonNeumann => i32::from(ax + ay <= r),
                    Neighbourhood::Circular => i32::from(disc_width(dy, r * r + r) >= ax),
                    Neighbourhood::L2 => i32::from(disc_width(dy, r * r) >= ax),
                    Neighbourhood::Cross => i32::from(dx == 0 || dy == 0),
                    Neighbourhood::Saltire => i32::from(ax == ay),
                    Neighbourhood::Star => i32::from(dx == 0 || dy == 0 || ax == ay),
                    Neighbourhood::Hash => i32::from(ay == 1 || ax == 1 || (dy == 0 && dx == 0)),
                    Neighbourhood::Checkerboard => {
                        i32::from((dx + dy) % 2 != 0 || dx == 0 && dy == 0)
                    }
                    Neighbourhood::AlignedCheckerboard => i32::from((dx + dy) % 2 == 0),
                    Neighbourhood::Hexagonal => {
                        i32::from(if dy < 0 { dx <= r + dy } else { dx >= -r + dy })
                    }
                    Neighbourhood::Asterisk => i32::from(dy == 0 || dx == 0 || dx == dy),
                    Neighbourhood::Tripod => i32::from(
                        (dy < 0 && dx == 0) || (dy == 0 && dx <= 0) || (dy > 0 && dx == dy),
                    ),
                    Neighbourhood::Gaussian => (r + 1 - ax) * (r + 1 - ay),
                    Neighbourhood::Triangular => i32::from(
                        ay <= r
                            && if dy < 0 {
                                ax <= 2 * r + 1 - ay
                            } else {
                                ax <= 2 * r - dy
                            },
                    ),
                    Neighbourhood::Custom { cells, .. } => i32::from(cells.contains(&(dx, dy))),
                    Neighbourhood::Weighted { weights, .. } => {
                        let side = 2 * r + 1;
                        weights[((dy + r) * side + dx + r) as usize]
                    }
                };
                if weight != 0 {
                    out.push((dx, dy, weight));
                }
            }
        }
        out
    }

    /// Whether a cell in a non-zero state adds one to its own count (Golly's Gaussian).
    pub fn centre_bonus(&self) -> bool {
        matches!(self, Neighbourhood::Gaussian)
    }

    /// The weight of a cell in `state` (before its position's weight): 1 for state 1, 0
    /// otherwise, unless the weighted neighbourhood gives state weights.
    pub fn state_weight(&self, state: u8) -> i32 {
        match self {
            Neighbourhood::Weighted {
                state_weights: Some(w),
                ..
            } => {
                // Golly adds the dead weight only when it is positive.
                let weight = w.get(usize::from(state)).copied().unwrap_or(0);
                if state == 0 { weight.max(0) } else { weight }
            }
            _ => i32::from(state == 1),
        }
    }
}

/// The half-width of a disc's row `dy` (Golly's `tshape`): the largest w with
/// w² + dy² ≤ `r2`.
fn disc_width(dy: i32, r2: i32) -> i32 {
    let mut w = 0;
    while (w + 1) * (w + 1) + dy * dy <= r2 {
        w += 1;
    }
    w
}

/// A neighbourhood laid out for counting: its cells by row, and the runs of consecutive
/// cells in each row (a count is a sum of run sums when every weight is one).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shape {
    /// How far the shape reaches along either axis ([`Neighbourhood::reach`]).
    pub range: i32,
    /// Every counted cell with its weight, centre included where it counts.
    pub cells: Vec<(i32, i32, i32)>,
    /// `(dy, first dx, last dx)` of each run of weight-one cells, by row.
    pub runs: Vec<(i32, i32, i32)>,
    /// Every weight is one and only state 1 counts: counts are sums of runs.
    pub plain: bool,
    /// Moore: every row is one run of the full width (the sliding-sum fast path).
    pub square: bool,
    /// Golly's Gaussian: weights (r+1−|dx|)(r+1−|dy|), a tent along each axis, so a count
    /// is a tent of the rows' tent sums (O(r) a cell; the centre bonus on top).
    pub tent: bool,
    /// A triangular grid: a cell whose `x + y` is odd counts the shape upside down
    /// (`dy` negated), as Golly's triangular cells alternate orientation.
    pub flip: bool,
    /// von Neumann: the diamond |dx| + |dy| ≤ r (the diagonal-sum fast path).
    pub diamond: bool,
}

impl Shape {
    /// Lay out `n` at range `r`, on the triangular grid when `triangular`.
    pub fn new(n: &Neighbourhood, r: i32, triangular: bool) -> Shape {
        let cells = n.weighted_cells(r);
        let mut runs: Vec<(i32, i32, i32)> = Vec::new();
        for &(dx, dy, _) in &cells {
            match runs.last_mut() {
                Some(run) if run.0 == dy && run.2 + 1 == dx => run.2 = dx,
                _ => runs.push((dy, dx, dx)),
            }
        }
        let state_weights = matches!(
            n,
            Neighbourhood::Weighted {
                state_weights: Some(_),
                ..
            }
        );
        let plain = !n.centre_bonus() && !state_weights && cells.iter().all(|c| c.2 == 1);
        Shape {
            range: n.reach(r),
            flip: triangular,
            tent: matches!(n, Neighbourhood::Gaussian),
            square: matches!(n, Neighbourhood::Moore),
            diamond: matches!(n, Neighbourhood::VonNeumann),
            cells,
            runs,
            plain,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_match_gollys_max_neighbors() {
        // Golly counts the centre in every shape but the aligned checkerboard's parity
        // (where it lies on the even cells) — max_count is the size without it.
        for r in 1..=7 {
            for n in [
                Neighbourhood::Moore,
                Neighbourhood::VonNeumann,
                Neighbourhood::Cross,
                Neighbourhood::Saltire,
                Neighbourhood::Star,
                Neighbourhood::Hash,
                Neighbourhood::Checkerboard,
                Neighbourhood::AlignedCheckerboard,
                Neighbourhood::Hexagonal,
                Neighbourhood::Asterisk,
                Neighbourhood::Tripod,
                Neighbourhood::Triangular,
            ] {
                let size = n.cells(r).len() as i32;
                assert_eq!(size - 1, n.max_count(r), "{n:?} r={r}");
                assert!(n.cells(r).contains(&(0, 0)), "{n:?} counts the centre");
            }
            let total: i32 = Neighbourhood::Gaussian
                .weighted_cells(r)
                .iter()
                .map(|c| c.2)
                .sum();
            assert_eq!(total, Neighbourhood::Gaussian.max_count(r));
        }
    }

    #[test]
    fn circular_rows_follow_golly() {
        // R3 circular: r² + r = 12, rows dy = 0..3 have half-widths 3, 3, 2, 1.
        let cells = Neighbourhood::Circular.cells(3);
        let width = |dy: i32| cells.iter().filter(|c| c.1 == dy).count();
        assert_eq!([width(0), width(1), width(2), width(3)], [7, 7, 5, 3]);
        let shape = Shape::new(&Neighbourhood::Saltire, 2, false);
        assert_eq!(shape.runs.len(), 9);
        assert!(Shape::new(&Neighbourhood::Moore, 4, false).square);
    }
}

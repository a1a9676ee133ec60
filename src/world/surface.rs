//! Golly's joined surfaces beyond the torus and the plane: a torus whose edges meet
//! shifted, the Klein bottle, the cross-surface, the sphere, and a tube (Golly's bounded grid
//! with one infinite side, emulated by a cylinder whose open ends the pattern never reaches).
//!
//! Golly runs them as it runs every bounded grid: before each generation it copies edge
//! cells into the ring of cells just outside the grid, then steps the rule as usual
//! (`lifealgo::CreateBorderCells`). [`Join::source`] says, for each ring cell, which edge cell
//! it copies: the same cells Golly's help (Help/bounded.html) draws, corners included, so
//! every strategy here runs Golly's surfaces cell for cell.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::WorldError;

/// One of Golly's joined surfaces (the rule suffixes `:T30+5,20`, `:K30*,20`, `:C30,20`,
/// `:S30`, `:T0,20`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Join {
    /// A torus whose top and bottom edges meet shifted by this many cells (`:T30+5,20`).
    ShiftedTopBottom(i32),
    /// A torus whose left and right edges meet shifted by this many cells (`:T30,20-2`).
    ShiftedLeftRight(i32),
    /// A Klein bottle whose top and bottom edges meet twisted (`:K30*,20`); `shift`: also
    /// shifted by one cell (`:K30*+1,20`, even widths only, as in Golly).
    KleinTopBottom {
        /// The `+1` shift on the twisted edges.
        shift: bool,
    },
    /// A Klein bottle whose left and right edges meet twisted (`:K30,20*`, Golly's `:K30,20`).
    KleinLeftRight {
        /// The `+1` shift on the twisted edges (even heights only).
        shift: bool,
    },
    /// Both pairs of edges twisted (`:C30,20`).
    CrossSurface,
    /// The top edge joined to the left edge and the bottom edge to the right (`:S30`, square).
    Sphere,
    /// Top and bottom edges joined, left and right open: Golly's tube of infinite width
    /// (`:T0,20`), run in a grid wide enough that nothing reaches its ends.
    TubeTopBottom,
    /// Left and right edges joined, top and bottom open (`:T30,0`).
    TubeLeftRight,
}

impl Join {
    /// The surfaces the window's topology menu offers (a shifted torus needs a shift: it
    /// comes from a rule suffix).
    pub const MENU: [Join; 6] = [
        Join::KleinTopBottom { shift: false },
        Join::KleinLeftRight { shift: false },
        Join::CrossSurface,
        Join::Sphere,
        Join::TubeTopBottom,
        Join::TubeLeftRight,
    ];

    /// The CLI / settings spelling.
    pub fn name(self) -> &'static str {
        match self {
            Join::ShiftedTopBottom(_) | Join::ShiftedLeftRight(_) => "shifted-torus",
            Join::KleinTopBottom { .. } | Join::KleinLeftRight { .. } => "klein",
            Join::CrossSurface => "cross-surface",
            Join::Sphere => "sphere",
            Join::TubeTopBottom | Join::TubeLeftRight => "tube",
        }
    }

    /// The surface a CLI name selects (those without a parameter).
    pub fn from_name(name: &str) -> Option<Join> {
        match name {
            "klein" | "klein-bottle" => Some(Join::KleinLeftRight { shift: false }),
            "cross-surface" | "cross" => Some(Join::CrossSurface),
            "sphere" => Some(Join::Sphere),
            "tube" => Some(Join::TubeTopBottom),
            _ => None,
        }
    }

    /// Whether a `width × height` grid can be this surface.
    pub fn check_size(self, width: u32, height: u32) -> Result<(), WorldError> {
        if self == Join::Sphere && width != height {
            return Err(WorldError::SurfaceSize {
                surface: "a sphere",
                need: "a square grid (width = height)",
                width,
                height,
            });
        }
        Ok(())
    }

    /// Which sides a tube leaves open, (left and right, top and bottom): the ones a
    /// growing world enlarges; `None` for the closed surfaces.
    pub fn open_sides(self) -> Option<(bool, bool)> {
        match self {
            Join::TubeTopBottom => Some((true, false)),
            Join::TubeLeftRight => Some((false, true)),
            _ => None,
        }
    }

    /// The cell whose state the cell at `(x, y)` just outside a `width × height` grid copies,
    /// `None` where the surface is open (a tube's ends).
    pub fn source(self, x: i64, y: i64, width: i64, height: i64) -> Option<(i64, i64)> {
        let (right, bottom) = (width - 1, height - 1);
        let (off_x, off_y) = (!(0..width).contains(&x), !(0..height).contains(&y));
        let wrap_x = x.rem_euclid(width);
        let wrap_y = y.rem_euclid(height);
        // The edge a ring cell copies along one axis: the far edge across it, at a position
        // given by `along` (which a twist reverses and a shift moves).
        let across = |beyond_low: bool, last: i64| if beyond_low { last } else { 0 };
        match self {
            // Corners first wrap along the plain axis, then cross the joined edges: the
            // cells Golly's JoinShiftedEdges and JoinTwisted(AndShifted)Edges copy.
            Join::ShiftedTopBottom(_) | Join::KleinTopBottom { .. } if off_y => {
                let along = match self {
                    Join::ShiftedTopBottom(s) if y < 0 => (wrap_x - i64::from(s)).rem_euclid(width),
                    Join::ShiftedTopBottom(s) => (wrap_x + i64::from(s)).rem_euclid(width),
                    _ => self.twisted(wrap_x, width),
                };
                Some((along, across(y < 0, bottom)))
            }
            Join::ShiftedLeftRight(_) | Join::KleinLeftRight { .. } if off_x => {
                let along = match self {
                    Join::ShiftedLeftRight(s) if x < 0 => {
                        (wrap_y - i64::from(s)).rem_euclid(height)
                    }
                    Join::ShiftedLeftRight(s) => (wrap_y + i64::from(s)).rem_euclid(height),
                    _ => self.twisted(wrap_y, height),
                };
                Some((across(x < 0, right), along))
            }
            Join::ShiftedTopBottom(_) | Join::KleinTopBottom { .. } => {
                Some((across(x < 0, right), y))
            }
            Join::ShiftedLeftRight(_) | Join::KleinLeftRight { .. } => {
                Some((x, across(y < 0, bottom)))
            }
            // Corners copy the grid's own corner cell next to them (Golly: "these cells are
            // topologically different").
            Join::CrossSurface | Join::Sphere if off_x && off_y => {
                Some((x.clamp(0, right), y.clamp(0, bottom)))
            }
            Join::CrossSurface if off_y => Some((right - x, across(y < 0, bottom))),
            Join::CrossSurface => Some((across(x < 0, right), bottom - y)),
            // Top edge ↔ left edge, bottom edge ↔ right edge.
            Join::Sphere if x < 0 => Some((y, 0)),
            Join::Sphere if y < 0 => Some((0, x)),
            Join::Sphere if x > right => Some((y, bottom)),
            Join::Sphere => Some((right, x)),
            Join::TubeTopBottom if off_x => None,
            Join::TubeTopBottom => Some((x, across(y < 0, bottom))),
            Join::TubeLeftRight if off_y => None,
            Join::TubeLeftRight => Some((across(x < 0, right), y)),
        }
    }

    /// Where a twisted edge of `len` cells lands position `at`: reversed, and moved one
    /// cell further with the `+1` shift (which Golly applies on even lengths only).
    fn twisted(self, at: i64, len: i64) -> i64 {
        let shift = match self {
            Join::KleinTopBottom { shift } | Join::KleinLeftRight { shift } => shift,
            _ => false,
        };
        if shift && len % 2 == 0 {
            (len - 2 - at).rem_euclid(len)
        } else {
            len - 1 - at
        }
    }

    /// The suffix Golly writes for this surface on a `width × height` grid (its canonical
    /// form: `getrule()`'s).
    pub fn golly_suffix(self, width: u32, height: u32) -> String {
        let signed = |s: i32| {
            if s < 0 {
                s.to_string()
            } else {
                format!("+{s}")
            }
        };
        match self {
            Join::ShiftedTopBottom(s) => format!(":T{width}{},{height}", signed(s)),
            Join::ShiftedLeftRight(s) => format!(":T{width},{height}{}", signed(s)),
            Join::KleinTopBottom { shift } => {
                let plus = if shift && width.is_multiple_of(2) {
                    "+1"
                } else {
                    ""
                };
                format!(":K{width}*{plus},{height}")
            }
            Join::KleinLeftRight { shift } => {
                let plus = if shift && height.is_multiple_of(2) {
                    "+1"
                } else {
                    ""
                };
                format!(":K{width},{height}*{plus}")
            }
            Join::CrossSurface => format!(":C{width},{height}"),
            Join::Sphere => format!(":S{width}"),
            Join::TubeTopBottom => format!(":T0,{height}"),
            Join::TubeLeftRight => format!(":T{width},0"),
        }
    }
}

impl fmt::Display for Join {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Join::ShiftedTopBottom(s) => write!(f, "torus, top and bottom shifted {s:+}"),
            Join::ShiftedLeftRight(s) => write!(f, "torus, left and right shifted {s:+}"),
            Join::KleinTopBottom { shift } => write!(
                f,
                "Klein bottle, top and bottom twisted{}",
                if *shift { " +1" } else { "" }
            ),
            Join::KleinLeftRight { shift } => write!(
                f,
                "Klein bottle, left and right twisted{}",
                if *shift { " +1" } else { "" }
            ),
            Join::CrossSurface => f.write_str("cross-surface"),
            Join::Sphere => f.write_str("sphere"),
            Join::TubeTopBottom => f.write_str("tube, top and bottom joined"),
            Join::TubeLeftRight => f.write_str("tube, left and right joined"),
        }
    }
}

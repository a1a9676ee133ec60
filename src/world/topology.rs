//! What lies beyond a world's edges: a torus, dead cells, or one of Golly's other joined
//! surfaces ([`Join`]: a shifted torus, a Klein bottle, a cross-surface, a sphere, a
//! cylinder).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use super::WorldError;
pub use super::surface::Join;

/// What lies beyond the world's edges.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub enum Topology {
    /// Edges wrap around: the right neighbour of the last column is the first column.
    #[default]
    Torus,
    /// Everything outside the world is permanently dead.
    DeadBorder,
    /// Edges joined as one of Golly's other bounded grids: the cells just beyond an edge are
    /// copies of edge cells chosen by [`Join::source`], refreshed every generation.
    Joined(Join),
}

impl Topology {
    /// The CLI / settings spelling.
    pub fn name(self) -> &'static str {
        match self {
            Topology::Torus => "torus",
            Topology::DeadBorder => "dead",
            Topology::Joined(join) => join.name(),
        }
    }

    /// The cell whose state the cell at `(x, y)`, just beyond a `width × height` world (one
    /// of `-1..=width` × `-1..=height`, outside the world), copies: `None` for a dead cell.
    /// The one definition of every topology's edges; the torus and the dead border are here
    /// too so a test can hold every stepper's wrap to it.
    pub fn source(self, x: i64, y: i64, width: i64, height: i64) -> Option<(i64, i64)> {
        match self {
            Topology::Torus => Some((x.rem_euclid(width), y.rem_euclid(height))),
            Topology::DeadBorder => None,
            Topology::Joined(join) => join.source(x, y, width, height),
        }
    }

    /// Every cell of the ring around a `width × height` world, in the coordinates of the
    /// `(width + 2) × (height + 2)` padded grid that holds the world at `(1, 1)`, with the
    /// padded cell it copies ([`Topology::source`]; `None`: dead). What the steppers that run
    /// a joined surface on a padded grid fill its ring from.
    pub fn padded_ring(
        self,
        width: u32,
        height: u32,
    ) -> impl Iterator<Item = ((u32, u32), Option<(u32, u32)>)> {
        let (w, h) = (i64::from(width), i64::from(height));
        let padded = |x: i64, y: i64| ((x + 1) as u32, (y + 1) as u32);
        (-1..=w)
            .flat_map(move |x| [(x, -1), (x, h)])
            .chain((0..h).flat_map(move |y| [(-1, y), (w, y)]))
            .map(move |(x, y)| {
                let source = self.source(x, y, w, h).map(|(sx, sy)| padded(sx, sy));
                (padded(x, y), source)
            })
    }

    /// Whether a `width × height` world can have this topology (a sphere is square).
    pub fn check_size(self, width: u32, height: u32) -> Result<(), WorldError> {
        match self {
            Topology::Joined(join) => join.check_size(width, height),
            _ => Ok(()),
        }
    }

    /// Whether the steppers that only know the torus and the dead border need the
    /// joined-edge adapter ([`crate::step::joined`]) to run this topology.
    pub fn is_joined(self) -> bool {
        matches!(self, Topology::Joined(_))
    }
}

impl fmt::Display for Topology {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Topology::Joined(join) => write!(f, "{join}"),
            _ => f.write_str(self.name()),
        }
    }
}

impl FromStr for Topology {
    type Err = WorldError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "torus" | "wrap" => Ok(Topology::Torus),
            "dead" | "dead-border" | "plane" | "bounded" => Ok(Topology::DeadBorder),
            other => Join::from_name(other)
                .map(Topology::Joined)
                .ok_or_else(|| WorldError::UnknownTopology(other.to_string())),
        }
    }
}

//! What lies beyond a world's edges: a torus or dead cells.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use super::WorldError;

/// What lies beyond the world's edges.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub enum Topology {
    /// Edges wrap around: the right neighbour of the last column is the first column.
    #[default]
    Torus,
    /// Everything outside the world is permanently dead.
    DeadBorder,
}

impl Topology {
    /// The CLI / settings spelling.
    pub fn name(self) -> &'static str {
        match self {
            Topology::Torus => "torus",
            Topology::DeadBorder => "dead",
        }
    }
}

impl fmt::Display for Topology {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Topology {
    type Err = WorldError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "torus" | "wrap" => Ok(Topology::Torus),
            "dead" | "dead-border" | "plane" | "bounded" => Ok(Topology::DeadBorder),
            other => Err(WorldError::UnknownTopology(other.to_string())),
        }
    }
}

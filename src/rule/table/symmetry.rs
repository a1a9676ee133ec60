//! The neighbourhoods and symmetries of Golly's `@TABLE` format (its `ruletable_algo`):
//! the order of a transition's inputs, the symmetries each neighbourhood allows, and the
//! permutations of the inputs each symmetry stands for.
//!
//! Inputs, cell first (Golly's help, "Rule tables"): von Neumann `C,N,E,S,W`; Moore
//! `C,N,NE,E,SE,S,SW,W,NW`; hexagonal `C,N,E,SE,S,W,NW` (the square-grid emulation that
//! ignores NE and SW, as golab's hexagonal B/S rules do); one-dimensional `C,W,E`. The
//! neighbours after the cell form a ring (clockwise from north); a rotation shifts the
//! ring, a reflection reverses it, and each symmetry is the group its name says.

/// A table's neighbourhood.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TableNeighbourhood {
    /// N, E, S, W.
    VonNeumann,
    /// The 8 surrounding cells.
    Moore,
    /// Golly's hexagonal emulation: N, E, SE, S, W, NW.
    Hexagonal,
    /// W and E on the cell's row.
    OneDimensional,
}

impl TableNeighbourhood {
    /// The keyword `neighborhood:` takes (Golly's spelling).
    pub fn keyword(self) -> &'static str {
        match self {
            TableNeighbourhood::VonNeumann => "vonNeumann",
            TableNeighbourhood::Moore => "Moore",
            TableNeighbourhood::Hexagonal => "hexagonal",
            TableNeighbourhood::OneDimensional => "oneDimensional",
        }
    }

    /// Every neighbourhood, in Golly's order.
    pub const ALL: [TableNeighbourhood; 4] = [
        TableNeighbourhood::VonNeumann,
        TableNeighbourhood::Moore,
        TableNeighbourhood::Hexagonal,
        TableNeighbourhood::OneDimensional,
    ];

    /// Inputs of a transition: the cell and its neighbours (the output comes after).
    pub fn inputs(self) -> usize {
        match self {
            TableNeighbourhood::VonNeumann => 5,
            TableNeighbourhood::Moore => 9,
            TableNeighbourhood::Hexagonal => 7,
            TableNeighbourhood::OneDimensional => 3,
        }
    }

    /// The symmetries Golly allows for this neighbourhood.
    pub fn symmetries(self) -> &'static [&'static str] {
        match self {
            TableNeighbourhood::VonNeumann => &[
                "none",
                "rotate4",
                "rotate4reflect",
                "reflect_horizontal",
                "permute",
            ],
            TableNeighbourhood::Moore => &[
                "none",
                "rotate4",
                "rotate8",
                "rotate4reflect",
                "rotate8reflect",
                "reflect_horizontal",
                "permute",
            ],
            TableNeighbourhood::Hexagonal => &[
                "none",
                "rotate2",
                "rotate3",
                "rotate6",
                "rotate6reflect",
                "permute",
            ],
            TableNeighbourhood::OneDimensional => &["none", "reflect", "permute"],
        }
    }

    /// For each position of the compiled tree ([`super::tree::ORDER_4`] or `ORDER_8`),
    /// the transition input it reads, or `None` where the neighbourhood ignores the cell.
    pub fn tree_inputs(self) -> &'static [Option<usize>] {
        match self {
            // tree: N, W, E, S, C
            TableNeighbourhood::VonNeumann => &[Some(1), Some(4), Some(2), Some(3), Some(0)],
            TableNeighbourhood::OneDimensional => &[None, Some(1), Some(2), None, Some(0)],
            // tree: NW, NE, SW, SE, N, W, E, S, C
            TableNeighbourhood::Moore => &[
                Some(8),
                Some(2),
                Some(6),
                Some(4),
                Some(1),
                Some(7),
                Some(3),
                Some(5),
                Some(0),
            ],
            TableNeighbourhood::Hexagonal => &[
                Some(6),
                None,
                None,
                Some(3),
                Some(1),
                Some(5),
                Some(2),
                Some(4),
                Some(0),
            ],
        }
    }

    /// Neighbours of the compiled tree: 4 for von Neumann and one-dimensional, else 8.
    pub fn tree_neighbours(self) -> u8 {
        self.tree_inputs().len() as u8 - 1
    }
}

/// The input permutations `symmetry` stands for under `neighbourhood` (each maps output
/// position `i` to the input it takes), or `None` for `permute`, which takes every
/// ordering of the neighbours. `symmetry` must be one of
/// [`TableNeighbourhood::symmetries`].
pub fn permutations(neighbourhood: TableNeighbourhood, symmetry: &str) -> Option<Vec<Vec<usize>>> {
    let ring = neighbourhood.inputs() - 1;
    let (step, reflect) = match (neighbourhood, symmetry) {
        (_, "permute") => return None,
        (_, "none") => (ring, false),
        (TableNeighbourhood::OneDimensional, "reflect") => (ring, true),
        (_, "reflect_horizontal") => (ring, true),
        (_, "rotate2") => (ring / 2, false),
        (_, "rotate3") => (ring / 3, false),
        (TableNeighbourhood::VonNeumann, "rotate4") => (1, false),
        (TableNeighbourhood::VonNeumann, "rotate4reflect") => (1, true),
        (_, "rotate4") => (2, false),
        (_, "rotate4reflect") => (2, true),
        (_, "rotate8" | "rotate6") => (1, false),
        (_, "rotate8reflect" | "rotate6reflect") => (1, true),
        _ => (ring, false),
    };
    let mut out = Vec::new();
    for flip in [false, true].into_iter().take(1 + usize::from(reflect)) {
        for shift in (0..ring).step_by(step) {
            let mut p = vec![0usize];
            for i in 0..ring {
                // Reflection mirrors the ring about its first neighbour (N, or W in 1D);
                // a horizontal reflection of the square keeps N and S, which that is.
                // One dimension has no north: its reflection swaps W and E.
                let j = match (flip, neighbourhood) {
                    (false, _) => i,
                    (true, TableNeighbourhood::OneDimensional) => ring - 1 - i,
                    (true, _) => (ring - i) % ring,
                };
                p.push(1 + (j + shift) % ring);
            }
            out.push(p);
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_have_the_sizes_their_names_say() {
        use TableNeighbourhood::*;
        let size = |n, s| permutations(n, s).map(|g| g.len());
        assert_eq!(size(VonNeumann, "rotate4"), Some(4));
        assert_eq!(size(VonNeumann, "rotate4reflect"), Some(8));
        assert_eq!(size(VonNeumann, "reflect_horizontal"), Some(2));
        assert_eq!(size(Moore, "rotate4"), Some(4));
        assert_eq!(size(Moore, "rotate8reflect"), Some(16));
        assert_eq!(size(Hexagonal, "rotate2"), Some(2));
        assert_eq!(size(Hexagonal, "rotate3"), Some(3));
        assert_eq!(size(Hexagonal, "rotate6reflect"), Some(12));
        assert_eq!(size(OneDimensional, "reflect"), Some(2));
        assert_eq!(size(Moore, "none"), Some(1));
        assert_eq!(size(Moore, "permute"), None);
    }

    #[test]
    fn moore_reflection_swaps_east_and_west_and_keeps_north() {
        // Golly's reflect_horizontal for Moore: C,N,NW,W,SW,S,SE,E,NE.
        let g = permutations(TableNeighbourhood::Moore, "reflect_horizontal").unwrap();
        assert_eq!(g[1], vec![0, 1, 8, 7, 6, 5, 4, 3, 2]);
        // von Neumann rotate4: N takes E's state, and so on round the ring.
        let g = permutations(TableNeighbourhood::VonNeumann, "rotate4").unwrap();
        assert_eq!(g[1], vec![0, 2, 3, 4, 1]);
        let g = permutations(TableNeighbourhood::OneDimensional, "reflect").unwrap();
        assert_eq!(g[1], vec![0, 2, 1]);
    }
}

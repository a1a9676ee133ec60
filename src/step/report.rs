//! What an adaptive kernel is doing, for the benchmark's tables and the window's statistics:
//! one report type instead of strategy-specific methods on the generic traits.

/// A kernel's shape, how much of its work it skipped, and what its controller decided.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct KernelReport {
    /// The kernel and its shape in words (`"stream kernel, 6 gens/dispatch, 12-row strips
    /// (tuned), direct births, replaying repeats"`); empty where the report carries only
    /// decisions (a kernel with no shape to describe, whose submissions were paced).
    pub description: String,
    /// `(replayed, stepped)` strips since the last report, where the kernel replays regions
    /// whose neighbourhood repeats instead of stepping them
    /// ([`super::gpu_bitpacked::replay`]).
    pub replayed: Option<(u64, u64)>,
    /// Bytes of world state every stepped dispatch reads and writes at the least (each of
    /// them, once), and the generations a dispatch steps: the floor of the device traffic a
    /// generation costs, for a roofline that counts only bytes really moved.
    pub state_bytes: Option<(u64, u32)>,
    /// The latest adaptive decisions: the shape controller's and the births chooser's, then
    /// the submission pacer's ([`crate::step::pacing`]), each oldest first. A current view
    /// (each report repeats what is still kept), not only what is new.
    pub decisions: Vec<String>,
}

impl KernelReport {
    /// The share of strips stepped (1 where nothing replays or nothing ran).
    pub fn stepped_share(&self) -> f64 {
        match self.replayed {
            Some((r, s)) if r + s > 0 => s as f64 / (r + s) as f64,
            _ => 1.0,
        }
    }

    /// The least device bytes a generation moved: the state read and written once per
    /// dispatch, for the strips stepped (`None` where the kernel does not say).
    pub fn bytes_per_gen_floor(&self) -> Option<f64> {
        let (bytes, gens) = self.state_bytes?;
        Some(2.0 * bytes as f64 * self.stepped_share() / f64::from(gens.max(1)))
    }

    /// [`KernelReport::summary`], where the kernel describes itself.
    pub fn described(&self) -> Option<String> {
        (!self.description.is_empty()).then(|| self.summary())
    }

    /// The description with the share of strips replayed, where the kernel replays.
    pub fn summary(&self) -> String {
        match self.replayed {
            Some((r, s)) if r + s > 0 => format!(
                "{} ({:.1} % of strips replayed)",
                self.description,
                100.0 * r as f64 / (r + s) as f64
            ),
            _ => self.description.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_floor_counts_one_read_and_write_per_dispatch_of_the_stepped_strips() {
        let mut r = KernelReport {
            description: "k".into(),
            state_bytes: Some((1000, 5)),
            ..KernelReport::default()
        };
        assert_eq!(r.bytes_per_gen_floor(), Some(400.0));
        assert_eq!(r.summary(), "k");
        r.replayed = Some((3, 1));
        assert_eq!(r.bytes_per_gen_floor(), Some(100.0));
        assert_eq!(r.summary(), "k (75.0 % of strips replayed)");
        r.state_bytes = None;
        assert_eq!(r.bytes_per_gen_floor(), None);
    }
}

//! Fault injection, so tests and users can rehearse a lost GPU device.
//!
//! `GOLAB_FAULT=device-lost@gen:N` makes the first step of a GPU strategy that would go past
//! generation `N` fail with [`StepError::DeviceLost`], exactly as a driver reset or an OS GPU
//! watchdog would. It fires once per process.

use std::sync::atomic::{AtomicBool, Ordering};

use super::StepError;

/// The environment variable read by [`FaultPlan::from_env`].
pub const FAULT_ENV: &str = "GOLAB_FAULT";

/// An injected fault.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FaultPlan {
    /// The GPU device is "lost" when a step would go past this generation.
    pub device_lost_at: u64,
}

static FIRED: AtomicBool = AtomicBool::new(false);
static WARNED: AtomicBool = AtomicBool::new(false);

impl FaultPlan {
    /// Parse `device-lost@gen:N`.
    pub fn parse(text: &str) -> Result<FaultPlan, String> {
        let bad = || format!("{FAULT_ENV}='{text}' is not understood; use device-lost@gen:N");
        let generation = text
            .trim()
            .strip_prefix("device-lost@gen:")
            .ok_or_else(bad)?;
        let device_lost_at = generation.trim().parse().map_err(|_| bad())?;
        Ok(FaultPlan { device_lost_at })
    }

    /// The plan in [`FAULT_ENV`], if any (an unreadable value is reported on stderr once and
    /// ignored rather than crashing).
    pub fn from_env() -> Option<FaultPlan> {
        let text = std::env::var(FAULT_ENV).ok()?;
        match FaultPlan::parse(&text) {
            Ok(plan) => Some(plan),
            Err(e) => {
                if !WARNED.swap(true, Ordering::Relaxed) {
                    eprintln!("warning: {e}");
                }
                None
            }
        }
    }

    /// The injected error for a GPU step from `generation` over `generations`, if due.
    pub fn check(&self, generation: u64, generations: u64) -> Result<(), StepError> {
        let past = generation.saturating_add(generations) > self.device_lost_at;
        if past && !FIRED.swap(true, Ordering::Relaxed) {
            return Err(StepError::DeviceLost(format!(
                "injected by {FAULT_ENV} at generation {}",
                self.device_lost_at
            )));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plans_parse_and_bad_ones_say_how() {
        assert_eq!(
            FaultPlan::parse("device-lost@gen:40"),
            Ok(FaultPlan { device_lost_at: 40 })
        );
        assert!(
            FaultPlan::parse("gpu-on-fire")
                .unwrap_err()
                .contains("device-lost@gen:N")
        );
        assert!(FaultPlan::parse("device-lost@gen:x").is_err());
    }
}

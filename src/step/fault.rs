//! Fault injection, so tests and users can rehearse a lost GPU device.
//!
//! `GOLAB_FAULT=device-lost@gen:N` makes the first step of a GPU strategy that would go past
//! generation `N` fail with [`StepError::DeviceLost`], exactly as a driver reset or an OS GPU
//! watchdog would report it, while the device itself stays usable (the app's window shares it).
//! `GOLAB_FAULT=device-destroy@gen:N` really destroys the simulation's device first
//! (`wgpu::Device::destroy`), so every later use of it fails as after a driver reset: tests use
//! it to prove that recovery builds a new device rather than reusing the dead one.
//! `GOLAB_FAULT=device-unplug@gen:N` destroys it too and then hides every adapter from this
//! process, like an unplugged external GPU, so recovery has to continue on the CPU.
//! Each fires once per process.

use std::sync::atomic::{AtomicBool, Ordering};

use super::StepError;

/// The environment variable read by [`FaultPlan::from_env`].
pub const FAULT_ENV: &str = "GOLAB_FAULT";

/// An injected fault.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FaultPlan {
    /// The GPU device is "lost" when a step would go past this generation.
    pub device_lost_at: u64,
    /// What happens to the device.
    pub kind: FaultKind,
}

/// How an injected loss treats the device.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FaultKind {
    /// `device-lost`: the step reports the loss; the device stays usable.
    Reported,
    /// `device-destroy`: the device is destroyed before the loss is reported.
    Destroyed,
    /// `device-unplug`: destroyed, and no adapter can be opened afterwards in this process.
    Unplugged,
}

static FIRED: AtomicBool = AtomicBool::new(false);
static UNPLUGGED: AtomicBool = AtomicBool::new(false);
static WARNED: AtomicBool = AtomicBool::new(false);

/// Whether an injected `device-unplug` fault has removed every adapter from this process.
pub fn adapters_unplugged() -> bool {
    UNPLUGGED.load(Ordering::Relaxed)
}

impl FaultPlan {
    /// Parse `device-lost@gen:N`, `device-destroy@gen:N` or `device-unplug@gen:N`.
    pub fn parse(text: &str) -> Result<FaultPlan, String> {
        let bad = || {
            format!(
                "{FAULT_ENV}='{text}' is not understood; use device-lost@gen:N, \
                 device-destroy@gen:N or device-unplug@gen:N"
            )
        };
        let (name, generation) = text.trim().split_once("@gen:").ok_or_else(bad)?;
        let kind = match name {
            "device-lost" => FaultKind::Reported,
            "device-destroy" => FaultKind::Destroyed,
            "device-unplug" => FaultKind::Unplugged,
            _ => return Err(bad()),
        };
        let device_lost_at = generation.trim().parse().map_err(|_| bad())?;
        Ok(FaultPlan {
            device_lost_at,
            kind,
        })
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

    /// The injected error for a GPU step from `generation` over `generations`, if due;
    /// `device` is destroyed first when the plan says so.
    pub fn check(
        &self,
        generation: u64,
        generations: u64,
        device: Option<&wgpu::Device>,
    ) -> Result<(), StepError> {
        let past = generation.saturating_add(generations) > self.device_lost_at;
        if past && !FIRED.swap(true, Ordering::Relaxed) {
            if self.kind != FaultKind::Reported
                && let Some(device) = device
            {
                device.destroy();
            }
            UNPLUGGED.store(self.kind == FaultKind::Unplugged, Ordering::Relaxed);
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
            Ok(FaultPlan {
                device_lost_at: 40,
                kind: FaultKind::Reported
            })
        );
        assert_eq!(
            FaultPlan::parse(" device-destroy@gen:7 "),
            Ok(FaultPlan {
                device_lost_at: 7,
                kind: FaultKind::Destroyed
            })
        );
        assert_eq!(
            FaultPlan::parse("device-unplug@gen:0").map(|p| p.kind),
            Ok(FaultKind::Unplugged)
        );
        assert!(FaultPlan::parse("device-melt@gen:3").is_err());
        assert!(
            FaultPlan::parse("gpu-on-fire")
                .unwrap_err()
                .contains("device-lost@gen:N")
        );
        assert!(FaultPlan::parse("device-lost@gen:x").is_err());
    }
}

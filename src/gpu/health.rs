//! Whether a [`GpuContext`]'s device still works: a loss reported by wgpu (or injected by
//! fault injection on a device that survives), and the errors no operation captured.

use super::{GpuContext, Loss};

impl GpuContext {
    /// Why the device was lost, once it has been (really, or by injection).
    pub fn lost_reason(&self) -> Option<String> {
        self.lost.lock().ok()?.as_ref().map(|l| l.reason.clone())
    }

    /// Whether the device still works: not lost, or only lost by injection
    /// ([`GpuContext::simulate_loss`]), which [`GpuContext::clear_simulated_loss`] undoes.
    pub fn is_healthy(&self) -> bool {
        // A destroyed device reports its loss from the next maintenance: run it now.
        let _ = self.device.poll(wgpu::PollType::Poll);
        self.lost
            .lock()
            .is_ok_and(|l| l.as_ref().is_none_or(|l| l.simulated))
    }

    /// Report the device as lost to everyone who checks it, without harming it: fault
    /// injection's "device-lost", so steppers meet a loss through their own detection.
    pub fn simulate_loss(&self, reason: &str) {
        if let Ok(mut slot) = self.lost.lock() {
            slot.get_or_insert(Loss {
                reason: reason.to_string(),
                simulated: true,
            });
        }
    }

    /// Forget an injected loss (recovery continues on this device). A real loss stays.
    pub fn clear_simulated_loss(&self) {
        if let Ok(mut slot) = self.lost.lock()
            && slot.as_ref().is_some_and(|l| l.simulated)
        {
            *slot = None;
        }
    }

    /// The first GPU error no operation captured (in practice the window's renderer's).
    pub fn take_uncaptured_error(&self) -> Option<String> {
        self.errors.lock().ok().and_then(|mut e| e.take())
    }
}

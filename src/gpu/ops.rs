//! How one piece of GPU work owns its outcome on a device shared by several threads (the
//! window's renderer, the simulation, the Lab).
//!
//! - **Errors**: [`GpuContext::scoped`] runs a closure inside wgpu error scopes. wgpu keeps
//!   error scopes per thread, so a validation or out-of-memory error caused by the Lab is
//!   returned to the Lab's call and never fails the simulation, and the other way round.
//!   Only errors nobody scoped (the window's renderer) reach the device's uncaptured handler.
//! - **Waiting**: [`GpuContext::submit`] returns the submission's index and
//!   [`GpuContext::wait_for`] blocks until *that* submission is done. The queue executes in
//!   order, so work submitted earlier by another thread still runs first, but nobody waits for
//!   work submitted after its own.

use super::GpuContext;

/// The first error a scoped operation caused, as text (validation, out of memory, internal).
pub type ScopeError = String;

impl GpuContext {
    /// Run `work` with this thread's GPU errors captured: returns its result and the first
    /// error any wgpu call inside it caused.
    pub fn scoped<T>(&self, work: impl FnOnce() -> T) -> (T, Option<ScopeError>) {
        let oom = self.device.push_error_scope(wgpu::ErrorFilter::OutOfMemory);
        let validation = self.device.push_error_scope(wgpu::ErrorFilter::Validation);
        let internal = self.device.push_error_scope(wgpu::ErrorFilter::Internal);
        let out = work();
        // Scopes pop innermost first.
        let errors = [internal.pop(), validation.pop(), oom.pop()]
            .into_iter()
            .filter_map(pollster::block_on)
            .map(|e| e.to_string())
            .next();
        (out, errors)
    }

    /// Submit `commands` and return the index to wait for.
    pub fn submit(
        &self,
        commands: impl IntoIterator<Item = wgpu::CommandBuffer>,
    ) -> wgpu::SubmissionIndex {
        self.queue.submit(commands)
    }

    /// Block until submission `index` has finished and its map callbacks have run; an error
    /// means the device is gone or hung. Later submissions of other threads are not waited for.
    pub fn wait_for(&self, index: wgpu::SubmissionIndex) -> Result<(), String> {
        self.device
            .poll(wgpu::PollType::Wait {
                submission_index: Some(index),
                timeout: None,
            })
            .map(|_| ())
            .map_err(|e| e.to_string())
    }

    /// Submit `commands` and wait for them alone (see [`GpuContext::wait_for`]).
    pub fn submit_and_wait(
        &self,
        commands: impl IntoIterator<Item = wgpu::CommandBuffer>,
    ) -> Result<(), String> {
        let index = self.submit(commands);
        self.wait_for(index)
    }

    /// Map `buffer` for reading after `index` and wait for that submission only.
    pub fn map_read(
        &self,
        buffer: &wgpu::Buffer,
        index: wgpu::SubmissionIndex,
    ) -> Result<(), String> {
        buffer.slice(..).map_async(wgpu::MapMode::Read, |_| {});
        self.wait_for(index)
    }
}

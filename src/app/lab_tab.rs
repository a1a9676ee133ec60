//! The Lab tab: GPU kernel experiments (their engine arrives with the Lab issue).

use std::sync::Arc;

use crate::gpu::GpuContext;

/// State of the Lab tab.
#[derive(Default)]
pub struct LabTab {}

impl LabTab {
    /// Draw the tab.
    pub fn show(&mut self, ui: &mut egui::Ui, gpu: Option<&Arc<GpuContext>>) {
        ui.heading("Lab");
        ui.label("GPU kernel experiments (bitonic sort, transpose, subgroup shuffle, coalescing) are not built yet: they arrive with the Lab issue.");
        if let Some(ctx) = gpu {
            ui.label(format!("Device: {}", ctx.adapter_name()));
        }
    }
}

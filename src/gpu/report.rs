//! The `golab gpu-info` report.

use super::{GpuContext, limits};

impl GpuContext {
    /// A multi-line report for `golab gpu-info`.
    pub fn report(&self) -> String {
        let l = &self.limits;
        let mut out = String::new();
        out.push_str(&format!("adapter      {}\n", self.info.name));
        out.push_str(&format!("backend      {:?}\n", self.info.backend));
        out.push_str(&format!("device type  {:?}\n", self.info.device_type));
        out.push_str(&format!(
            "driver       {} {}\n",
            self.info.driver, self.info.driver_info
        ));
        let yes = |b: bool| if b { "yes" } else { "no" };
        out.push_str(&format!("timestamps   {}\n", yes(self.has_timestamps())));
        out.push_str(&format!(
            "subgroups    {} (size {}..={})\n",
            yes(self.has_subgroups()),
            self.info.subgroup_min_size,
            self.info.subgroup_max_size
        ));
        out.push_str(&format!(
            "zero-copy    {} (MAPPABLE_PRIMARY_BUFFERS)\n",
            yes(self.has_mappable_primary_buffers())
        ));
        out.push_str(&format!("max buffer   {} MiB\n", l.max_buffer_size >> 20));
        out.push_str(&format!(
            "max storage binding  {} MiB\n",
            l.max_storage_buffer_binding_size >> 20
        ));
        out.push_str(&format!(
            "workgroup memory     {} KiB\n",
            l.max_compute_workgroup_storage_size >> 10
        ));
        out.push_str(&format!(
            "workgroup invocations {}\n",
            l.max_compute_invocations_per_workgroup
        ));
        out.push_str(&format!(
            "workgroups per dimension {}\n",
            l.max_compute_workgroups_per_dimension
        ));
        out.push_str(&format!(
            "largest world (gpu strategies) {}\n",
            limits::largest_square_world(l)
        ));
        out
    }
}

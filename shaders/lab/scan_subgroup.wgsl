// Multi-pass scan kernels, workgroup step by subgroup operations.
//!include lab/scan_wg_subgroup.wgsl
//!include lab/scan_kernels.wgsl

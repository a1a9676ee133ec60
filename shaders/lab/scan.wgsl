// Multi-pass scan kernels, workgroup step in workgroup memory (every device).
//!include lab/scan_wg_tree.wgsl
//!include lab/scan_kernels.wgsl

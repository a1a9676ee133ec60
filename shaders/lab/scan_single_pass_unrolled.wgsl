// Single-pass scan written out straight for one shape, workgroup step in workgroup memory.
//!include lab/scan_wg_tree.wgsl
//!include lab/scan_lookback_wg.wgsl
//!include lab/scan_lookback.wgsl
//!include lab/scan_unrolled.wgsl

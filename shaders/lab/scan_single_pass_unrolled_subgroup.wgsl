// Single-pass scan written out straight for one shape, workgroup step by subgroup operations.
//!include lab/scan_wg_subgroup.wgsl
//!include lab/scan_lookback_subgroup.wgsl
//!include lab/scan_lookback.wgsl
//!include lab/scan_unrolled.wgsl

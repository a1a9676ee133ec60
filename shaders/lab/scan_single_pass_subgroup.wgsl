// Single-pass (decoupled look-back) scan, workgroup step by subgroup operations.
//!include lab/scan_wg_subgroup.wgsl
//!include lab/scan_lookback_subgroup.wgsl
//!include lab/scan_lookback.wgsl

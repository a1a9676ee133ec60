// Single-pass (decoupled look-back) scan, workgroup step in workgroup memory (every device).
//!include lab/scan_wg_tree.wgsl
//!include lab/scan_lookback_wg.wgsl
//!include lab/scan_lookback.wgsl

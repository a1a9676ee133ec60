//! The Lab tab as a user meets it: rows stream into the table and plot while the run goes
//! on, a typed path saves the CSV without a file dialog, and software-driver figures are
//! labelled.

mod app_harness;
mod common;

use std::time::{Duration, Instant};

use app_harness::{harness, settings};
use egui_kittest::kittest::Queryable;

#[test]
fn rows_stream_in_while_running_and_a_typed_path_saves_the_csv() {
    let mut harness = harness(settings(32, 32, 10.0));
    harness.get_by_label("Lab").click();
    harness.run_steps(2);
    // Small sizes only: untick the preset ticked for this device (2^20 on a GPU; a CPU
    // device is offered 2^14 and up, 2^20 taking a minute of sorting there).
    let preset = if harness.state().software_gpu() {
        "2^14"
    } else {
        "2^20"
    };
    harness.get_by_label(preset).click();
    harness.run_steps(1);
    harness.get_by_label("more sizes").click();
    harness.run_steps(1);
    harness
        .get_by_label("more sizes")
        .type_text("2^10, 3000, 2^14");
    harness.run_steps(2);
    harness.get_by_label("Run").click();
    harness.run_steps(2);
    let start = Instant::now();
    // The smallest non-empty row count the table showed while the run was still going:
    // streaming means some snapshot held rows before the last one arrived.
    let mut partial_seen: Option<usize> = None;
    while harness.state().lab_tab().is_running() {
        let tab = harness.state().lab_tab();
        if let Some(report) = tab.shown_report()
            && tab.report.is_none()
        {
            let rows = report.rows.len();
            if rows > 0 {
                partial_seen = Some(partial_seen.map_or(rows, |seen| seen.min(rows)));
            }
        }
        assert!(
            start.elapsed() < Duration::from_secs(180),
            "the Lab run did not finish: {}",
            tab.status()
        );
        harness.step();
        std::thread::sleep(Duration::from_millis(20));
    }
    harness.run_steps(2);
    let report = harness.state().lab_tab().report.clone().expect("a report");
    assert!(
        partial_seen.is_some_and(|rows| rows < report.rows.len()),
        "rows did not stream in (fewest seen while running: {partial_seen:?}, {} in all)",
        report.rows.len()
    );
    assert!(report.all_validated(), "{}", report.to_markdown());
    // The legend sits beside the plot, one numbered entry per variant.
    let mut variants: Vec<&str> = report.rows.iter().map(|r| r.variant.as_str()).collect();
    variants.sort_unstable();
    variants.dedup();
    for (i, variant) in variants.iter().enumerate() {
        harness.get_by_label(&format!("{} {variant}", i + 1));
    }

    let path = std::env::temp_dir().join(format!("golab-lab-{}.csv", std::process::id()));
    harness.get_by_label("CSV path").click();
    harness.run_steps(1);
    harness
        .get_by_label("CSV path")
        .type_text(&path.display().to_string());
    harness.run_steps(1);
    harness.get_by_label("Save").click();
    harness.run_steps(2);
    let csv = std::fs::read_to_string(&path).expect("the CSV was written");
    assert_eq!(csv, report.to_csv());
    let _ = std::fs::remove_file(path);

    let software = harness.state().software_gpu();
    assert_eq!(
        harness.query_by_label("software driver").is_some(),
        software
    );
}

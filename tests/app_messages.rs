//! The status line's message area: severities, errors that stay until dismissed or
//! superseded, and a malformed launch file shown as an error (not a silent soup).

mod app_harness;
mod common;

use app_harness::{launched, open, settings, temp_file, wait_for};
use egui_kittest::kittest::Queryable;
use golab::app::{AppOptions, Severity};

#[test]
fn a_malformed_launch_file_is_an_error_in_the_window_and_the_world_is_empty() {
    // A leading zero in a count: Golly 5 refuses it, and so does golab.
    let bad = temp_file("bad.rle", "x = 3, y = 3\nbo$2bo$03o!\n");
    let launch = AppOptions {
        pattern: Some(bad.clone()),
        ..AppOptions::default()
    };
    let mut harness = launched(settings(40, 30, 30.0), &launch);
    let snap = wait_for(&mut harness, "the empty world", |s| {
        s.stats.population == 0 && s.can_undo
    });
    let message = harness
        .state()
        .messages
        .current()
        .cloned()
        .expect("a message");
    assert_eq!(message.severity, Severity::Error);
    assert!(message.text.contains("bad.rle"), "{}", message.text);
    assert_eq!(message.until, None, "errors do not expire");
    // The error is in the status line, and the world · rule label is untouched.
    harness.get_by_label_contains("bad.rle");
    assert_eq!(snap.describe, "40×30 torus grid (scalar)");
    harness.get_by_label(&format!("{} · {}", snap.describe, snap.rule));
    // Dismissed with its button.
    harness.get_by_label("×").click();
    harness.run_steps(2);
    assert!(harness.state().messages.current().is_none());
    assert!(harness.query_by_label_contains("bad.rle").is_none());
    let _ = std::fs::remove_file(bad);
}

#[test]
fn an_error_is_superseded_by_a_later_success() {
    let mut harness = launched(settings(40, 30, 0.0), &AppOptions::default());
    let missing = std::path::Path::new("/nonexistent/golab/pattern.rle");
    open(&mut harness, missing);
    harness.run_steps(2);
    harness.get_by_label_contains("pattern.rle");
    let message = harness.state().messages.current().cloned().unwrap();
    assert_eq!(message.severity, Severity::Error, "{}", message.text);
    let good = temp_file("glider.rle", "x = 3, y = 3\nbo$2bo$3o!\n");
    open(&mut harness, &good);
    harness.run_steps(2);
    let message = harness.state().messages.current().cloned().unwrap();
    assert_eq!(message.severity, Severity::Info, "{}", message.text);
    assert!(message.text.starts_with("opened"), "{}", message.text);
    let _ = wait_for(&mut harness, "the glider", |s| s.stats.population == 5);
    let _ = std::fs::remove_file(good);
}

//! Rules in the window: a rule the field cannot parse is refused in the panel with the reason
//! (the world keeps its rule), and a Generations rule on gpu-bitpacked, the bit-plane
//! strategy, shows its dying cells in the statistics.

mod app_harness;
mod common;

use app_harness::{harness, settings, wait_for};
use egui_kittest::kittest::Queryable;
use golab::app::Settings;
use golab::step::Strategy;

#[test]
fn a_malformed_rule_is_refused_and_a_generations_rule_runs_on_gpu_bitpacked() {
    let mut harness = harness(Settings {
        strategy: Strategy::GpuBitpacked,
        ..settings(48, 32, 35.0)
    });
    wait_for(&mut harness, "the first statistics", |s| {
        s.stats.population > 0
    });
    harness.state_mut().apply_rule("B3/S23/1");
    harness.run_steps(2);
    let reason = "rule has 2 to 256 states, not 1";
    assert!(
        harness.query_by_label_contains(reason).is_some(),
        "the panel does not say why the rule was refused"
    );
    assert_eq!(
        harness.state().runner().snapshot().rule.to_string(),
        "B3/S23"
    );

    harness.state_mut().apply_rule("Brian's Brain");
    wait_for(&mut harness, "the Generations rule", |s| {
        s.rule.to_string() == "/2/3"
    });
    harness
        .state_mut()
        .runner()
        .send(golab::runner::Command::Step(3));
    let snap = wait_for(&mut harness, "dying cells", |s| {
        s.stats.dying > 0 && s.generation >= 3
    });
    assert_eq!(snap.strategy, Strategy::GpuBitpacked);
    harness.run_steps(2);
    assert!(
        harness.query_by_label("dying: ").is_some(),
        "no dying counter"
    );
    assert!(
        harness.query_by_label_contains(reason).is_none(),
        "the old refusal stayed"
    );
}

/// A rule table chosen while gpu-bitpacked runs (which cannot run one) moves the world to
/// rayon and says why; the panel shows Golly's population and the rule's own colours.
#[test]
fn a_rule_table_moves_a_bitpacked_world_to_rayon_and_is_drawn_in_its_colours() {
    let mut harness = harness(Settings {
        strategy: Strategy::GpuBitpacked,
        ..settings(48, 32, 35.0)
    });
    wait_for(&mut harness, "the first statistics", |s| {
        s.stats.population > 0
    });
    harness.state_mut().apply_rule("WireWorld");
    let snap = wait_for(&mut harness, "the rule table", |s| {
        s.rule.to_string() == "WireWorld"
    });
    assert_eq!(snap.strategy, Strategy::Rayon);
    harness.run_steps(2);
    assert!(
        harness
            .query_by_label_contains("running WireWorld on rayon")
            .is_some(),
        "the move to rayon is not explained"
    );
    assert!(
        harness.query_by_label("the rule's colours").is_some(),
        "no choice of the rule's colours"
    );
    assert!(
        harness
            .query_all_by_label_contains("electron head")
            .next()
            .is_some(),
        "the legend does not name the rule's states"
    );
    assert!(
        harness.query_by_label("state 1: ").is_some(),
        "no state-1 counter beside Golly's population"
    );
}

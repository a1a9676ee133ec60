//! The control panel's step section: Golly's step (base^exponent generations, a delay
//! below exponent 0), golab's speed, "go to generation" with its progress and Stop, and
//! where the world hashes, hyperspeed and the memory limit.

use egui::Ui;

use super::GolabApp;
use crate::runner::Snapshot;
use crate::runner::step_model::{BASES, MIN_EXPONENT};

/// The step section (see the module docs).
pub fn show(app: &mut GolabApp, ui: &mut Ui, snap: &Snapshot) {
    let hashing = snap.capabilities.hashing;
    ui.horizontal(|ui| {
        let mut step = app.settings.step;
        let mut base = step.base_for(hashing);
        let label = ui.label("step");
        let base_field = egui::DragValue::new(&mut base).range(BASES);
        let base_changed = ui
            .add(base_field)
            .labelled_by(label.id)
            .on_hover_text("Golly's base step: 10 on a grid, 8 where the world hashes (HashLife's, so steps are powers of two its memo keeps)")
            .changed();
        ui.label("^");
        let mut exp = step.exponent;
        let most = step.max_exponent(hashing);
        let exp_changed = ui
            .add(egui::DragValue::new(&mut exp).range(MIN_EXPONENT..=most))
            .on_hover_text("+ / −: the exponent; a step (Tab) is base^exponent generations, running goes one step a frame; below 0 it is a delay between generations (250 ms at −1 up to 2 s at −4)")
            .changed();
        if base_changed {
            let _ = step.set_base(base);
        }
        step.exponent = exp;
        ui.label(match step.delay() {
            Some(d) => format!("= 1 gen / {:.2} s", d.as_secs_f64()),
            None => format!("= {} gen", step.increment(hashing)),
        });
        if base_changed || exp_changed {
            app.settings.step = step;
            app.send_speed(snap);
        }
    });
    ui.horizontal(|ui| {
        let mut max = app.settings.max_speed;
        let mut per_frame = app.settings.per_frame;
        let slider = egui::Slider::new(&mut per_frame, 1..=1000)
            .logarithmic(true)
            .text("steps/tick");
        let changed = ui
            .add_enabled(!max, slider)
            .on_hover_text(
                "steps per tick of the simulation's clock, 60 ticks a second (Golly runs one): \
                 1 runs 60 steps a second (if the strategy keeps up), however few frames the \
                 window draws",
            )
            .changed();
        let toggled = ui
            .checkbox(&mut max, "max")
            .on_hover_text("as fast as possible")
            .changed();
        if changed || toggled {
            app.settings.per_frame = per_frame;
            app.settings.max_speed = max;
            app.send_speed(snap);
        }
    });
    if hashing {
        hashing_row(app, ui, snap);
    }
    ui.horizontal(|ui| {
        let label = ui.label("go to gen");
        let field = ui
            .add(egui::TextEdit::singleline(&mut app.panel.go_to_text).desired_width(90.0))
            .labelled_by(label.id)
            .on_hover_text("G: a generation ahead, 1000000 or 2^40");
        if std::mem::take(&mut app.panel.focus_go_to) {
            field.request_focus();
        }
        let enter = field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
        if ui.button("Go").clicked() || enter {
            let text = app.panel.go_to_text.clone();
            app.go_to(&text, snap);
        }
    });
    if snap.pending > 0 {
        ui.horizontal(|ui| {
            super::status_line::slow_spinner(ui);
            ui.label(format!("{} generations to go", snap.pending));
            if ui
                .button("Stop")
                .on_hover_text("abandon the step in progress: the pattern stays where it is")
                .clicked()
            {
                app.runner.interrupt();
            }
        });
    }
}

/// Hyperspeed and the node store's memory limit, where the world hashes.
fn hashing_row(app: &mut GolabApp, ui: &mut Ui, snap: &Snapshot) {
    ui.horizontal(|ui| {
        let mut hyper = app.settings.hyperspeed;
        if ui
            .checkbox(&mut hyper, "hyperspeed")
            .on_hover_text("the step doubles while steps stay fast, as Golly's hyperspeed does (a periodic pattern soon goes 2^20 and more per step)")
            .changed()
        {
            app.settings.hyperspeed = hyper;
            app.send_speed(snap);
        }
        if let Some(step) = snap.hyper_step {
            ui.label(format!("now {step} a step"));
        }
        let mut mib = app.settings.plane_memory_mib;
        let label = ui.label("memory");
        let field = egui::DragValue::new(&mut mib)
            .range(0..=1 << 20)
            .suffix(" MiB")
            .custom_formatter(|v, _| if v == 0.0 { "auto".into() } else { format!("{v}") });
        if ui
            .add(field)
            .labelled_by(label.id)
            .on_hover_text("the node store collects garbage at this size (auto: a quarter of the memory available, 64 MiB to 4 GiB); results stay exact, a small limit costs time, and a step that cannot fit says so and leaves the pattern where it was")
            .changed()
        {
            app.settings.plane_memory_mib = mib;
            app.send_memory_limit();
        }
        let mut threads = app.settings.hash_threads.setting();
        let label = ui.label("threads");
        let field = egui::DragValue::new(&mut threads)
            .range(0..=crate::hashlife::threads::MAX_THREADS)
            .custom_formatter(|v, _| if v == 0.0 { "auto".into() } else { format!("{v}") });
        if ui
            .add(field)
            .labelled_by(label.id)
            .on_hover_text("threads a hashed step runs on (auto: every core; 1: the single-threaded engine); the results are the same whatever the count")
            .changed()
        {
            app.settings.hash_threads = crate::hashlife::Threads::count(threads);
            app.send_memory_limit();
        }
    });
}

//! The control panel's section for the unbounded plane: hyperspeed, the memory limit,
//! "go to generation" and its progress with Stop.

use egui::Ui;

use super::GolabApp;
use crate::runner::Snapshot;

/// The plane's own controls: hyperspeed, the memory limit, "go to generation" and its
/// progress.
pub fn show(app: &mut GolabApp, ui: &mut Ui, snap: &Snapshot, plane: &crate::runner::PlaneInfo) {
    ui.horizontal(|ui| {
        let mut hyper = app.settings.hyperspeed;
        if ui
            .checkbox(&mut hyper, "hyperspeed")
            .on_hover_text("the step doubles while steps stay fast, as Golly's hyperspeed does (a periodic pattern soon goes 2^20 and more per step)")
            .changed()
        {
            app.settings.hyperspeed = hyper;
            app.send_plane_step();
        }
        if plane.hyper && plane.exponent != app.settings.step_exp {
            ui.label(format!("now 2^{}", plane.exponent));
        }
    });
    ui.horizontal(|ui| {
        let mut mib = app.settings.plane_memory_mib;
        let label = ui.label("memory limit");
        let field = egui::DragValue::new(&mut mib)
            .range(0..=1 << 20)
            .suffix(" MiB")
            .custom_formatter(|v, _| if v == 0.0 { "auto".into() } else { format!("{v}") });
        if ui
            .add(field)
            .labelled_by(label.id)
            .on_hover_text("the node store collects garbage at this size (auto: a quarter of the memory available, 64 MiB to 4 GiB); results stay exact, a small limit only costs time")
            .changed()
        {
            app.settings.plane_memory_mib = mib;
            app.send_plane_step();
        }
    });
    ui.horizontal(|ui| {
        let label = ui.label("go to gen");
        let field = ui
            .add(egui::TextEdit::singleline(&mut app.panel.go_to_text).desired_width(90.0))
            .labelled_by(label.id)
            .on_hover_text("a generation ahead: 1000000 or 2^40");
        let enter = field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
        if ui.button("Go").clicked() || enter {
            let text = app.panel.go_to_text.clone();
            app.go_to(&text, snap);
        }
    });
    if plane.pending > 0 {
        ui.horizontal(|ui| {
            super::status_line::slow_spinner(ui);
            ui.label(format!("{} generations to go", plane.pending));
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

//! Golly's folders in the window (#54): the rules-folder setting typed in the Preferences
//! makes a loop pattern open whose rule lives only there, and the pattern browser opens a
//! file of the user's folder with one click, shows its comments and lists it under Recent.

mod app_harness;
mod common;

use app_harness::{harness, settings, wait_for};
use egui_kittest::kittest::Queryable;
use golab::app::Severity;

/// A folder of its own under the temporary directory.
fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("golab-folders-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Wait until the open in flight is applied.
fn settle(h: &mut egui_kittest::Harness<'_, golab::app::GolabApp>) {
    let start = std::time::Instant::now();
    h.run_steps(2);
    while h.state().is_opening() {
        assert!(start.elapsed().as_secs() < 60, "the open never ended");
        h.run_steps(1);
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    h.run_steps(2);
}

#[test]
fn a_rules_folder_typed_in_the_preferences_lets_langtons_loops_open() {
    // Langton's loops under a name no bundled or installed folder has: only the user's
    // rules folder can supply it (Golly's own Rules folder is installed in CI).
    let table = std::fs::read_to_string("/usr/share/golly/Rules/Langtons-Loops.rule")
        .expect("Debian's golly package (scripts/setup-system --test installs it)");
    let pattern =
        std::fs::read_to_string("/usr/share/golly/Patterns/Loops/Langtons-Loops.rle").unwrap();
    let rules = temp_dir("rules");
    std::fs::write(
        rules.join("Golab-Test-Loops.rule"),
        table.replacen("@RULE Langtons-Loops", "@RULE Golab-Test-Loops", 1),
    )
    .unwrap();
    let file = temp_dir("loops").join("loops.rle");
    std::fs::write(
        &file,
        pattern.replacen("rule = Langtons-Loops", "rule = Golab-Test-Loops", 1),
    )
    .unwrap();

    let mut h = harness(settings(64, 64, 0.0));
    let snap = h.state().runner().snapshot();
    h.state_mut().open_path(&file, &snap);
    settle(&mut h);
    let message = h.state().messages.current().cloned().expect("a refusal");
    assert_eq!(message.severity, Severity::Error);
    assert!(
        message.text.contains("Golab-Test-Loops") && message.text.contains("Preferences"),
        "the refusal names the rule and the setting: {}",
        message.text
    );
    assert_eq!(
        h.state().runner().snapshot().population,
        0,
        "the world stays"
    );

    // Preferences (Golly's key) → Folders → Your rules: type the folder, press Enter.
    h.key_press(egui::Key::Comma);
    h.run_steps(2);
    h.get_by_label("Your rules").click();
    h.run_steps(1);
    h.get_by_label("Your rules")
        .type_text(rules.to_str().unwrap());
    h.run_steps(1);
    h.key_press(egui::Key::Enter);
    h.run_steps(2);
    assert_eq!(
        h.state().settings.rules_folder.as_deref(),
        Some(rules.as_path())
    );

    let snap = h.state().runner().snapshot();
    h.state_mut().open_path(&file, &snap);
    settle(&mut h);
    let snap = wait_for(&mut h, "the loop", |s| s.occupied > 0);
    assert_eq!(snap.rule.to_string(), "Golab-Test-Loops");
    assert_eq!(snap.rule.states(), 8);
    // Langton's loop is 86 cells in states 1..7 (Golly's file).
    assert_eq!(snap.occupied, 86);
    let _ = std::fs::remove_dir_all(rules);
    let _ = std::fs::remove_dir_all(file.parent().unwrap());
}

#[test]
fn the_browser_opens_a_file_of_your_folder_with_one_click_and_remembers_it() {
    let folder = temp_dir("yours");
    std::fs::write(
        folder.join("my-glider.rle"),
        "#N My glider\n#C found on a napkin\nx = 3, y = 3\nbo$2bo$3o!\n",
    )
    .unwrap();
    let mut s = settings(64, 64, 0.0);
    s.pattern_folders = vec![folder.clone()];
    s.recent = Vec::new();
    let mut h = harness(s);
    let title = format!("{} (yours)", folder.file_name().unwrap().to_string_lossy());
    h.get_by_label(&title).click();
    h.run_steps(2);
    h.get_by_label("my-glider.rle").click();
    settle(&mut h);
    let snap = wait_for(&mut h, "the glider", |s| s.population == 5);
    assert_eq!(snap.generation, 0);
    // Golly shows a file's comments: Pattern info (I) has them.
    h.key_press(egui::Key::I);
    h.run_steps(2);
    assert!(h.get_all_by_label_contains("found on a napkin").count() >= 1);
    assert_eq!(
        h.state().settings.recent.first(),
        Some(&folder.join("my-glider.rle"))
    );
    // Listed under Recent too: the file's name twice in the browser.
    assert_eq!(h.get_all_by_label("my-glider.rle").count(), 2);
    let _ = std::fs::remove_dir_all(folder);
}

//! Smoke test of the real binary: open the window under Xvfb on the software Vulkan driver,
//! let it draw, take a screenshot and check the world is on it.

mod common;

use std::path::Path;
use std::process::Command;

#[test]
fn the_window_opens_and_draws_the_world() {
    common::need_tool("xvfb-run");
    common::need_tool("import");
    let dir = std::env::temp_dir().join(format!("golab-window-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let shot = dir.join("shot.png");
    let script = format!(
        "'{bin}' & p=$!; sleep 12; import -window root '{shot}'; kill $p; wait $p",
        bin = env!("CARGO_BIN_EXE_golab"),
        shot = shot.display()
    );
    let status = Command::new("xvfb-run")
        .args(["-a", "-s", "-screen 0 1400x900x24", "sh", "-c", &script])
        .env("HOME", &dir)
        .env("XDG_DATA_HOME", dir.join("data"))
        .env("XDG_CONFIG_HOME", dir.join("config"))
        .status()
        .expect("xvfb-run starts");
    assert!(
        status.success() || Path::new(&shot).exists(),
        "xvfb-run failed: {status}"
    );
    let image = image::open(&shot)
        .expect("a screenshot was taken")
        .to_rgb8();
    // Paused at generation 0 every cell of the soup is newborn: bright yellow, not the dark
    // violet of the oldest cells.
    let newborn = image
        .pixels()
        .filter(|p| p.0[0] == 253 && p.0[1] == 231 && p.0[2] == 37)
        .count();
    let mut colours: Vec<[u8; 3]> = image.pixels().map(|p| p.0).collect();
    colours.sort_unstable();
    colours.dedup();
    assert!(
        colours.len() > 20,
        "the screenshot is nearly blank ({} colours)",
        colours.len()
    );
    assert!(
        newborn > 10_000,
        "the world's soup is not drawn bright ({newborn} newborn-cell pixels)"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

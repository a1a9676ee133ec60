//! After a crash: a panic hook writes a crash report and the last copy of the world, and the
//! next launch offers to recover it.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use crate::pattern::Pattern;
use crate::world::World;

/// File name of the recovered world (RLE, beside eframe's settings).
pub const RECOVERY_FILE: &str = "recovery.rle";
/// File name of the last crash report.
pub const REPORT_FILE: &str = "crash-report.txt";

/// golab's data folder (`~/.local/share/golab` on Linux).
pub fn data_dir() -> Option<PathBuf> {
    eframe::storage_dir("golab")
}

/// Write the crash `report` and, when there is one, `world` as RLE into `dir`. Returns the
/// files written. The world's cells survive; ages restart at 1, as in any pattern file.
pub fn write_recovery(
    dir: &Path,
    report: &str,
    world: Option<&World>,
) -> std::io::Result<Vec<PathBuf>> {
    std::fs::create_dir_all(dir)?;
    let mut written = Vec::new();
    let report_path = dir.join(REPORT_FILE);
    std::fs::write(&report_path, report)?;
    written.push(report_path);
    if let Some(world) = world {
        let mut pattern = Pattern::from_world(world);
        pattern.name = Some(format!("golab recovery at generation {}", world.generation));
        let path = dir.join(RECOVERY_FILE);
        std::fs::write(&path, pattern.to_rle())?;
        written.push(path);
    }
    Ok(written)
}

/// Install a panic hook that, after the default message, writes the report and the last
/// world copy from `last_world` into `dir` (the lock is only tried, never waited for).
pub fn install_hook(dir: PathBuf, last_world: Arc<Mutex<Option<World>>>) {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        default(info);
        let report = format!(
            "golab {} crashed: {info}\n\nbacktrace:\n{}\n",
            env!("CARGO_PKG_VERSION"),
            std::backtrace::Backtrace::force_capture()
        );
        let world = last_world.try_lock().ok().and_then(|w| w.clone());
        match write_recovery(&dir, &report, world.as_ref()) {
            Ok(files) => eprintln!(
                "golab: crash report and world saved: {}",
                files
                    .iter()
                    .map(|f| f.display().to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            Err(e) => eprintln!("golab: could not save the crash report: {e}"),
        }
    }));
}

/// The recovery file left by a crash, if any.
pub fn pending(dir: &Path) -> Option<PathBuf> {
    let path = dir.join(RECOVERY_FILE);
    path.exists().then_some(path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rule::Rule;
    use crate::world::{CellEdit, Topology};

    #[test]
    fn a_crash_leaves_a_report_and_the_world_as_a_pattern() {
        let dir = std::env::temp_dir().join(format!("golab-crash-{}", std::process::id()));
        let mut world = World::new(20, 10, Topology::Torus, Rule::CONWAY).unwrap();
        for (x, y) in [(1, 0), (2, 1), (0, 2), (1, 2), (2, 2)] {
            world.apply_edit(CellEdit { x, y, alive: true });
        }
        world.generation = 77;
        let files = write_recovery(&dir, "boom", Some(&world)).unwrap();
        assert_eq!(files.len(), 2);
        assert_eq!(
            std::fs::read_to_string(dir.join(REPORT_FILE)).unwrap(),
            "boom"
        );
        let back = crate::pattern::library::load_file(&pending(&dir).unwrap()).unwrap();
        assert_eq!(back.population(), 5);
        assert!(back.name.unwrap().contains("generation 77"));
        std::fs::remove_dir_all(&dir).unwrap();
        assert!(pending(&dir).is_none());
    }
}

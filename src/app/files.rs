//! Opening, saving and exporting: file dialogs (rfd), dropped files, pattern and PNG writing.
//! Patterns are opened on a background thread (a large macrocell or gzip file takes a
//! while), and the result is picked up on a later frame by [`collect_opened`].

use std::path::Path;
use std::sync::mpsc::Receiver;

use super::GolabApp;
use super::colormap::{Colormap, pixel_colour};
use super::pattern_info::PatternInfo;
use crate::pattern::{Format, Pattern};
use crate::rule::Rule;
use crate::runner::{Command, Snapshot};
use crate::step::view::{ViewRequest, render_host};
use crate::world::World;

/// File extensions the open dialogs offer (any of them may also end in `.gz`).
const PATTERN_EXTENSIONS: &[&str] = &[
    "rle", "cells", "txt", "lif", "life", "mc", "mcl", "apg", "gz",
];

/// A pattern opened in the background: the world, the note to show and the file's info.
pub type Opened = Result<(OpenedWorld, String, PatternInfo), String>;

/// Where an opened pattern goes.
pub enum OpenedWorld {
    /// A grid: the bounded grid a file names, or an unbounded one that grows with the
    /// pattern.
    Grid(World),
    /// The hashed universe: a macrocell file, a pattern larger than any grid, a B0 rule.
    Hashed(Box<crate::universe::HashedUniverse>),
}

/// The rule an opened pattern runs under when its file names none.
#[derive(Debug, Clone, Copy)]
struct Current {
    rule: Rule,
}

/// Largest edge of an exported PNG; bigger worlds are downsampled (a pixel shows any life).
const PNG_MAX_EDGE: u32 = 4096;

/// The parts of the running world an opened pattern inherits: only the rule, when the file
/// names none (an opened pattern never inherits the last world's size or surface).
fn current(snap: &Snapshot) -> Current {
    Current { rule: snap.rule }
}

/// Resolve `source` (a path, bundled pattern name or apgcode) and build its world, as Golly
/// opens it: unbounded unless the file names a bounded grid; the warnings of the reader and
/// of the placement go into the info.
fn open_source(source: &str, now: Current) -> Opened {
    if is_macrocell(source) {
        match open_hashed(source, now) {
            Err(crate::hashlife::load::LoadError::BoundedGrid { .. }) => {}
            Err(e) => return Err(format!("{source}: {e}")),
            Ok(opened) => return Ok(opened),
        }
    }
    let pattern = crate::pattern::resolve(source).map_err(|e| format!("{source}: {e}"))?;
    let (world, placement_warning) = match world_for_pattern(&pattern, now) {
        Ok(placed) => placed,
        Err(why) if pattern.grid.is_none() => {
            let (hashed, note, info) =
                open_hashed(source, now).map_err(|e| format!("{source}: {e}"))?;
            return Ok((hashed, format!("{note}, hashed ({why})"), info));
        }
        Err(why) => return Err(why),
    };
    let mut info = PatternInfo::of(&pattern, source);
    info.warnings.extend(placement_warning);
    let mut note = format!("opened {source}");
    if let Some(first) = info.warnings.first() {
        note = format!("{note} ({first})");
    }
    Ok((OpenedWorld::Grid(world), note, info))
}

/// Whether `source` is a macrocell file (by its extension, `.gz` or not).
fn is_macrocell(source: &str) -> bool {
    let path = Path::new(source);
    path.is_file() && Format::from_path(path) == Some(Format::Macrocell)
}

/// Open `source` in the hashed universe (a macrocell file straight into the quadtree); the
/// current rule where the file names none.
fn open_hashed(
    source: &str,
    now: Current,
) -> Result<(OpenedWorld, String, PatternInfo), crate::hashlife::load::LoadError> {
    let limit = crate::hashlife::default_memory_limit();
    let (mut universe, meta) = crate::hashlife::load::open(source, None, limit)?;
    if meta.rule.is_none() {
        universe.set_rule(now.rule)?;
    }
    let info = PatternInfo::of(&meta, source);
    let note = format!(
        "opened {source}: {} cells at generation {}",
        universe.population(),
        universe.generation()
    );
    let hashed = crate::universe::HashedUniverse::new(universe);
    Ok((OpenedWorld::Hashed(Box::new(hashed)), note, info))
}

/// Cells of room the window first gives a pattern beyond each end of a tube's infinite side
/// (Golly's `:T0,68`); the world then grows along it as the pattern nears an end.
const TUBE_ROOM: u64 = 64;

/// Cells of room the window gives a pattern beyond each end of a strip's infinite side
/// (`:P30,0`, no Golly file has one), which does not grow: a pattern moving at c reaches an
/// end after this many generations.
const STRIP_ROOM: u64 = 4096;

/// The world a pattern opens as, as Golly opens it: the bounded grid the file names
/// (`:T72,48`, `:P100,80`: that size and surface, the pattern at its position), else an
/// unbounded grid that grows with the pattern, which lies at the file's position (its
/// top-left at the origin without one). The pattern's rule when it names one, the file's
/// generation. The second value warns of clipped cells. A rule with B0 (outside Larger
/// than Life) has no unbounded grid: the caller opens it hashed.
fn world_for_pattern(pattern: &Pattern, now: Current) -> Result<(World, Option<String>), String> {
    let rule = pattern.rule.unwrap_or(now.rule);
    // A tube's open side starts with a little room and grows; a strip's gets room for a long run.
    let room = match pattern.grid.map(|g| g.topology) {
        Some(crate::world::Topology::DeadBorder) => STRIP_ROOM,
        _ => TUBE_ROOM,
    };
    if let Some(opened) = pattern.open_in_grid(rule, room) {
        let (world, report) = opened?;
        return Ok((world, report.warning()));
    }
    if !crate::universe::convert::grows_under(&rule) {
        return Err(format!(
            "{rule} has B0: unbounded, every empty cell would be born, so it runs hashed"
        ));
    }
    crate::sim::growth::world_for(pattern, rule).map_err(|e| e.to_string())
}

/// Start opening `source` (a path, bundled pattern name or apgcode) as the new world on a
/// background thread; [`collect_opened`] applies it when it is ready.
/// `remove_after` deletes the file once read (the crash-recovery world).
pub fn start_open(app: &mut GolabApp, source: &str, snap: &Snapshot, remove_after: bool) {
    let (tx, rx) = std::sync::mpsc::channel();
    let (source, now) = (source.trim().to_string(), current(snap));
    let file = Path::new(&source);
    app.opening_file = (!remove_after && file.is_file()).then(|| file.to_path_buf());
    std::thread::spawn(move || {
        let opened = open_source(&source, now);
        if remove_after {
            let _ = std::fs::remove_file(&source);
        }
        let _ = tx.send(opened);
    });
    app.opening = Some(rx);
}

/// Apply a finished background open: replace the world, show the file's info. Returns
/// whether one is still running (to keep frames coming).
pub fn collect_opened(app: &mut GolabApp) -> bool {
    let Some(rx) = &app.opening else {
        return false;
    };
    let result = match rx.try_recv() {
        Ok(result) => result,
        Err(std::sync::mpsc::TryRecvError::Empty) => return true,
        Err(std::sync::mpsc::TryRecvError::Disconnected) => {
            Err("opening the pattern stopped unexpectedly".to_string())
        }
    };
    app.opening = None::<Receiver<Opened>>;
    let from_launch = std::mem::take(&mut app.opening_launch);
    let file = app.opening_file.take();
    match result {
        Ok((world, note, info)) => {
            if let Some(file) = file {
                app.settings.remember_recent(&file);
            }
            let rule = match &world {
                OpenedWorld::Grid(world) => world.rule(),
                OpenedWorld::Hashed(universe) => universe.hashed().rule(),
            };
            app.settings.rule = rule.to_string();
            app.panel.rule_text = app.settings.rule.clone();
            match world {
                OpenedWorld::Grid(world) => app.runner.send(Command::Replace(world)),
                OpenedWorld::Hashed(universe) => app.runner.send(Command::Open(universe)),
            }
            app.view.selection = None;
            app.reset_step_for_open();
            app.fit_pattern();
            app.notify(note);
            app.pattern_info = Some(info);
        }
        Err(e) => {
            app.error(e);
            if from_launch {
                let snap = app.runner.snapshot();
                app.clear(&snap);
            }
        }
    }
    false
}

/// Open a pattern chosen in a file dialog.
pub fn open_dialog(app: &mut GolabApp, snap: &Snapshot) {
    let picked = rfd::FileDialog::new()
        .add_filter("Life patterns", PATTERN_EXTENSIONS)
        .pick_file();
    match picked {
        Some(path) => {
            app.open_path(&path, snap);
        }
        None => app.warn("no file chosen (no dialog? type a path in the Patterns section)"),
    }
}

/// Load a pattern file chosen in a dialog and let it follow the cursor to be placed.
pub fn place_dialog(app: &mut GolabApp) {
    let picked = rfd::FileDialog::new()
        .add_filter("Life patterns", PATTERN_EXTENSIONS)
        .pick_file();
    match picked {
        Some(path) => place_file(app, &path),
        None => app.warn("no file chosen (no dialog? type a path and press Place)"),
    }
}

/// Load the pattern at `path` (or the bundled pattern or apgcode it names) for placing at
/// the cursor.
pub fn place_file(app: &mut GolabApp, path: &Path) {
    match crate::pattern::resolve(&path.to_string_lossy()) {
        Ok(mut pattern) => {
            let file = path.file_name().map(|f| f.to_string_lossy().into_owned());
            if let Some(file) = file {
                pattern.name.get_or_insert(file);
            }
            app.view.placing = Some(std::sync::Arc::new(pattern));
        }
        Err(e) => app.error(format!("{}: {e}", path.display())),
    }
}

/// Save the world as a pattern chosen in a file dialog.
pub fn save_dialog(app: &mut GolabApp) {
    let picked = rfd::FileDialog::new()
        .add_filter("RLE", &["rle"])
        .add_filter("Macrocell", &["mc"])
        .add_filter("Life 1.06", &["lif", "life"])
        .add_filter("Plaintext", &["cells"])
        .add_filter("apgcode (one object)", &["apg"])
        .set_file_name("world.rle")
        .save_file();
    match picked {
        Some(path) => app.save_to(path),
        None => app.warn("not saved (no dialog? type a path in the Patterns section)"),
    }
}

/// Export the world as PNG to a path chosen in a file dialog.
pub fn export_dialog(app: &mut GolabApp) {
    let picked = rfd::FileDialog::new()
        .add_filter("PNG image", &["png"])
        .set_file_name("world.png")
        .save_file();
    match picked {
        Some(path) => app.export_png_to(path),
        None => app.warn("not exported (no dialog? type a path ending in .png)"),
    }
}

/// Write `world` as a PNG coloured like the view, one pixel per cell up to 4096 a side.
pub fn export_png(world: &World, path: &Path, map: Colormap) -> Result<String, String> {
    let (w, h) = (world.width(), world.height());
    let cells_per_pixel = (f64::from(w.max(h)) / f64::from(PNG_MAX_EDGE)).max(1.0);
    let request = ViewRequest {
        x0: 0.0,
        y0: 0.0,
        cells_per_pixel,
        width_px: (f64::from(w) / cells_per_pixel).ceil() as u32,
        height_px: (f64::from(h) / cells_per_pixel).ceil() as u32,
    };
    let mut ages = vec![0; request.pixels()];
    render_host(world, &request, &mut ages);
    let rgb: Vec<u8> = ages
        .iter()
        .flat_map(|&a| {
            let c = pixel_colour(map, a, world.generation, world.rule().states());
            [c.r(), c.g(), c.b()]
        })
        .collect();
    image::save_buffer_with_format(
        path,
        &rgb,
        request.width_px,
        request.height_px,
        image::ExtendedColorType::Rgb8,
        image::ImageFormat::Png,
    )
    .map_err(|e| format!("could not write {}: {e}", path.display()))?;
    Ok(format!(
        "exported {} ({}×{})",
        path.display(),
        request.width_px,
        request.height_px
    ))
}

/// Open pattern files dropped on the window (the last one wins).
pub fn handle_dropped_files(app: &mut GolabApp, ctx: &egui::Context, snap: &Snapshot) {
    let dropped = ctx.input(|i| i.raw.dropped_files.clone());
    for file in dropped {
        app.open_path(file.path(), snap);
    }
}

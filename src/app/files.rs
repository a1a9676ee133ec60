//! Opening, saving and exporting: file dialogs (rfd), dropped files, pattern and PNG writing.

use std::path::Path;

use super::GolabApp;
use super::colormap::{Colormap, cell_colour};
use crate::pattern::{Format, Pattern, Placement, library};
use crate::runner::Snapshot;
use crate::step::view::{ViewRequest, render_host};
use crate::world::World;

/// Largest edge of an exported PNG; bigger worlds are downsampled (a pixel shows any life).
const PNG_MAX_EDGE: u32 = 4096;

/// The world a pattern file opens as: the current size (grown to fit the pattern, up to
/// 16384²), the pattern's rule when it names one, the pattern centred, generation 0.
pub fn world_from_file(path: &Path, snap: &Snapshot) -> Result<(World, String), String> {
    let pattern = library::load_file(path).map_err(|e| format!("{}: {e}", path.display()))?;
    world_for_pattern(&pattern, snap).map(|w| (w, format!("opened {}", path.display())))
}

fn world_for_pattern(pattern: &Pattern, snap: &Snapshot) -> Result<World, String> {
    let grow = |edge: u32, need: u32| -> u32 {
        if need + 16 <= edge {
            edge
        } else {
            (need + 16).next_power_of_two().clamp(edge, 16384)
        }
    };
    let (w, h) = (
        grow(snap.size.0, pattern.width),
        grow(snap.size.1, pattern.height),
    );
    let rule = pattern.rule.unwrap_or(snap.rule);
    let mut world = World::new(w, h, snap.topology, rule).map_err(|e| e.to_string())?;
    pattern.place(&mut world, Placement::Centred);
    Ok(world)
}

/// Open a pattern chosen in a file dialog.
pub fn open_dialog(app: &mut GolabApp, snap: &Snapshot) {
    let picked = rfd::FileDialog::new()
        .add_filter("Life patterns", &["rle", "cells", "txt", "lif"])
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
        .add_filter("Life patterns", &["rle", "cells", "txt", "lif"])
        .pick_file();
    match picked {
        Some(path) => place_file(app, &path),
        None => app.warn("no file chosen (no dialog? type a path and press Place)"),
    }
}

/// Load the pattern at `path` for placing at the cursor.
pub fn place_file(app: &mut GolabApp, path: &Path) {
    match library::load_file(path) {
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
        .add_filter("Plaintext", &["cells"])
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

/// Write `world`'s live cells to `path` (RLE, or plaintext for `.cells`/`.txt`).
pub fn save_pattern(world: &World, path: &Path) -> Result<String, String> {
    if path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("png"))
    {
        return Err("use Export PNG for images".into());
    }
    let format = Format::from_path(path).unwrap_or(Format::Rle);
    let text = Pattern::from_world(world).to_format(format);
    std::fs::write(path, text).map_err(|e| format!("could not write {}: {e}", path.display()))?;
    Ok(format!("saved {} ({})", path.display(), format.name()))
}

/// Write `world` as a PNG coloured like the view, one pixel per cell up to 4096 a side.
pub fn export_png(world: &World, path: &Path, map: Colormap) -> Result<String, String> {
    let (w, h) = (world.width(), world.height());
    let cells_per_pixel = (w.max(h) as f32 / PNG_MAX_EDGE as f32).max(1.0);
    let request = ViewRequest {
        x0: 0.0,
        y0: 0.0,
        cells_per_pixel,
        width_px: (w as f32 / cells_per_pixel).ceil() as u32,
        height_px: (h as f32 / cells_per_pixel).ceil() as u32,
    };
    let mut ages = vec![0; request.pixels()];
    render_host(world, &request, &mut ages);
    let rgb: Vec<u8> = ages
        .iter()
        .flat_map(|&a| {
            let c = cell_colour(map, a, world.generation);
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

//! The one way golab assembles WGSL: every file under `shaders/` embedded in one table, an
//! include directive resolved from that table, and named permutations (typed constants,
//! filled slots, appended generated text), so that every module golab can build is known
//! without a GPU and tests/shaders.rs validates each of them with naga.
//!
//! Directives are comment lines, so every file stays plain WGSL that editors highlight:
//!
//! | line in a `.wgsl` file | becomes |
//! |---|---|
//! | `//!include life/common.wgsl` | that file (once per module; a cycle is an error) |
//! | `//!const STRIP: u32` (`// why` may follow) | `const STRIP: u32 = 47u;` from [`Shader::constant`] |
//! | `//!const STRIP: u32 = 64u` | the same, with a default used when no value is given |
//! | `//!slot walk` | the text given by [`Shader::slot`] (kernels generated in Rust) |
//!
//! [`Shader::generated`] appends text after everything else. Assembly is strict: a constant
//! or slot given but declared nowhere, a declaration with neither value nor default, a type
//! mismatch or an unknown file is an error naming the file, so a typo cannot silently keep a
//! default. Example:
//!
//! ```
//! use golab::gpu::shader::Shader;
//! let wgsl = Shader::new("lab/sort_b.wgsl").constant("M", 3u32).source().unwrap();
//! assert!(wgsl.contains("const M: u32 = 3u;"));
//! ```

use std::collections::HashSet;
use std::fmt::Write;

use thiserror::Error;

use super::GpuContext;

/// `(path, text)` of each named file under `shaders/`, embedded at compile time.
macro_rules! embed {
    ($($path:literal),* $(,)?) => {
        &[$(($path, include_str!(concat!("../../shaders/", $path)))),*]
    };
}

/// Every WGSL file golab ships, by its path under `shaders/` (a test checks the list is complete).
pub static FILES: &[(&str, &str)] = embed![
    "app/view_paint.wgsl",
    "gpu/heater.wgsl",
    "gpu/roofline.wgsl",
    "gpu/view_value.wgsl",
    "gpu/thread_index.wgsl",
    "gpu/workgroup_scan.wgsl",
    "lab/coalesce.wgsl",
    "lab/boxsum.wgsl",
    "lab/lookup.wgsl",
    "lab/radix_common.wgsl",
    "lab/radix_key.wgsl",
    "lab/scan.wgsl",
    "lab/scan_kernels.wgsl",
    "lab/scan_lookback.wgsl",
    "lab/scan_lookback_subgroup.wgsl",
    "lab/scan_lookback_wg.wgsl",
    "lab/scan_single_pass.wgsl",
    "lab/scan_single_pass_subgroup.wgsl",
    "lab/scan_single_pass_unrolled.wgsl",
    "lab/scan_single_pass_unrolled_subgroup.wgsl",
    "lab/scan_subgroup.wgsl",
    "lab/scan_tile.wgsl",
    "lab/scan_unrolled.wgsl",
    "lab/scan_wg_subgroup.wgsl",
    "lab/scan_wg_tree.wgsl",
    "lab/shuffle.wgsl",
    "lab/shuffle_builtin.wgsl",
    "lab/shuffle_emulated.wgsl",
    "lab/shuffle_subgroup_1d.wgsl",
    "lab/shuffle_subgroup_3d.wgsl",
    "lab/sort_b.wgsl",
    "lab/sort_c.wgsl",
    "lab/sort_rw.wgsl",
    "lab/sort_common.wgsl",
    "lab/sort_radix.wgsl",
    "lab/sort_radix8.wgsl",
    "lab/sort_radix8_portable.wgsl",
    "lab/sort_radix8_subgroup.wgsl",
    "lab/sort_onesweep.wgsl",
    "lab/sort_onesweep_portable.wgsl",
    "lab/sort_onesweep_subgroup.wgsl",
    "lab/transpose.wgsl",
    "lab/transpose_wide.wgsl",
    "life/bitpacked.wgsl",
    "life/bitpacked_ages.wgsl",
    "life/bitpacked_edits.wgsl",
    "life/bitpacked_fold.wgsl",
    "life/bitpacked_replay.wgsl",
    "life/bitpacked_stats.wgsl",
    "life/bitpacked_step_bindings.wgsl",
    "life/bitpacked_step_common.wgsl",
    "life/bitpacked_subgroup.wgsl",
    "life/bitpacked_view.wgsl",
    "life/columns.wgsl",
    "life/tree.wgsl",
    "life/ltl_params.wgsl",
    "life/cell_state.wgsl",
    "life/ltl_prefix.wgsl",
    "life/ltl_diagonal.wgsl",
    "life/ltl_windows.wgsl",
    "life/ltl_blocks.wgsl",
    "life/ltl_count.wgsl",
    "life/ltl_diamond4.wgsl",
    "life/ltl_emit.wgsl",
    "life/ltl_mask.wgsl",
    "life/common.wgsl",
    "life/edits.wgsl",
    "life/naive.wgsl",
    "life/padded.wgsl",
    "life/shared.wgsl",
    "life/stats.wgsl",
    "life/view.wgsl",
];

/// The text of `shaders/<path>`, if golab ships that file.
pub fn file(path: &str) -> Option<&'static str> {
    FILES
        .iter()
        .find(|(p, _)| *p == path)
        .map(|(_, text)| *text)
}

/// Why a module could not be assembled (always a bug in golab's shaders or their callers).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("assembling {module}: {message}")]
pub struct ShaderError {
    /// The module's label ([`Shader::label`]).
    pub module: String,
    /// What is wrong, naming the file and line where there is one.
    pub message: String,
}

/// A typed value for a `//!const` declaration.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ConstValue {
    /// `u32`, written `47u`.
    U32(u32),
    /// `i32`, written `-3i`.
    I32(i32),
    /// `f32`, written `0.5f` (must be finite).
    F32(f32),
    /// `bool`.
    Bool(bool),
}

impl ConstValue {
    /// The WGSL type name.
    pub fn type_name(self) -> &'static str {
        match self {
            ConstValue::U32(_) => "u32",
            ConstValue::I32(_) => "i32",
            ConstValue::F32(_) => "f32",
            ConstValue::Bool(_) => "bool",
        }
    }

    /// The value as a WGSL literal; `None` for a non-finite float.
    pub fn literal(self) -> Option<String> {
        Some(match self {
            ConstValue::U32(v) => format!("{v}u"),
            ConstValue::I32(i32::MIN) => "(-2147483647i - 1i)".into(),
            ConstValue::I32(v) => format!("{v}i"),
            ConstValue::F32(v) if !v.is_finite() => return None,
            ConstValue::F32(v) => format!("{v:?}f"),
            ConstValue::Bool(v) => v.to_string(),
        })
    }
}

impl From<u32> for ConstValue {
    fn from(v: u32) -> Self {
        ConstValue::U32(v)
    }
}
impl From<i32> for ConstValue {
    fn from(v: i32) -> Self {
        ConstValue::I32(v)
    }
}
impl From<f32> for ConstValue {
    fn from(v: f32) -> Self {
        ConstValue::F32(v)
    }
}
impl From<bool> for ConstValue {
    fn from(v: bool) -> Self {
        ConstValue::Bool(v)
    }
}

/// One module to assemble: a root file under `shaders/` and its permutation (constants,
/// slots, generated text). Cheap to build; [`Shader::source`] does the work.
#[derive(Debug, Clone, PartialEq)]
pub struct Shader {
    root: &'static str,
    constants: Vec<(String, ConstValue)>,
    slots: Vec<(String, String)>,
    generated: Option<String>,
}

impl Shader {
    /// The module rooted at `shaders/<root>` (e.g. `"lab/sort_b.wgsl"`).
    pub fn new(root: &'static str) -> Shader {
        Shader {
            root,
            constants: Vec::new(),
            slots: Vec::new(),
            generated: None,
        }
    }

    /// Give the `//!const name: T` declaration of one of the module's files this value.
    pub fn constant(mut self, name: &str, value: impl Into<ConstValue>) -> Shader {
        self.constants.push((name.to_string(), value.into()));
        self
    }

    /// Replace the `//!slot name` line of one of the module's files with `text`.
    pub fn slot(mut self, name: &str, text: impl Into<String>) -> Shader {
        self.slots.push((name.to_string(), text.into()));
        self
    }

    /// Append `text` (WGSL generated in Rust) after the assembled files.
    pub fn generated(mut self, text: impl Into<String>) -> Shader {
        self.generated = Some(text.into());
        self
    }

    /// The root file, the constants and the filled slots with a hash of their text:
    /// `lab/sort_c.wgsl W=2048 C4=true`, `life/bitpacked.wgsl HALO=16 +rule#1a2b3c4d` (module
    /// labels, test names; two permutations differing only in a slot's text differ here).
    pub fn label(&self) -> String {
        let mut label = self.root.to_string();
        for (name, value) in &self.constants {
            let shown = match value {
                ConstValue::U32(v) => v.to_string(),
                ConstValue::I32(v) => v.to_string(),
                ConstValue::F32(v) => v.to_string(),
                ConstValue::Bool(v) => v.to_string(),
            };
            let _ = write!(label, " {name}={shown}");
        }
        for (name, text) in &self.slots {
            let hash = xxhash_rust::xxh3::xxh3_64(text.as_bytes()) as u32;
            let _ = write!(label, " +{name}#{hash:08x}");
        }
        if self.generated.is_some() {
            label.push_str(" +generated");
        }
        label
    }

    /// The complete WGSL of this permutation.
    pub fn source(&self) -> Result<String, ShaderError> {
        self.assemble(FILES)
    }

    /// [`Shader::source`] from another table of files (unit tests).
    fn assemble(
        &self,
        files: &'static [(&'static str, &'static str)],
    ) -> Result<String, ShaderError> {
        let fail = |message: String| ShaderError {
            module: self.label(),
            message,
        };
        let mut seen = HashSet::new();
        for (name, _) in &self.constants {
            if !seen.insert(name.as_str()) {
                return Err(fail(format!("constant {name} is given twice")));
            }
        }
        let mut asm = Assembly {
            files,
            shader: self,
            out: String::new(),
            included: HashSet::new(),
            stack: Vec::new(),
            constants_used: HashSet::new(),
            slots_used: HashSet::new(),
        };
        asm.file(self.root, None).map_err(fail)?;
        if let Some((name, _)) = self
            .constants
            .iter()
            .find(|(n, _)| !asm.constants_used.contains(n.as_str()))
        {
            return Err(fail(format!(
                "constant {name} is not declared by a `//!const {name}: …` line in {} or its includes",
                self.root
            )));
        }
        if let Some((name, _)) = self
            .slots
            .iter()
            .find(|(n, _)| !asm.slots_used.contains(n.as_str()))
        {
            return Err(fail(format!(
                "slot {name} has no `//!slot {name}` line in {} or its includes",
                self.root
            )));
        }
        let mut out = asm.out;
        if let Some(text) = &self.generated {
            out.push_str("\n// generated\n");
            out.push_str(text);
            if !text.ends_with('\n') {
                out.push('\n');
            }
        }
        Ok(out)
    }

    /// Assemble this permutation and compile it with [`GpuContext::kernel_module`]. Panics
    /// on an assembly error: shipped shaders are fixed text that tests/shaders.rs assembles
    /// and validates in every permutation golab builds.
    pub fn module(&self, ctx: &GpuContext) -> wgpu::ShaderModule {
        let source = self.source().unwrap_or_else(|e| panic!("{e}"));
        ctx.kernel_module(&self.label(), &source)
    }
}

/// State of one assembly.
struct Assembly<'a> {
    files: &'static [(&'static str, &'static str)],
    shader: &'a Shader,
    out: String,
    included: HashSet<&'static str>,
    stack: Vec<&'static str>,
    constants_used: HashSet<&'a str>,
    slots_used: HashSet<&'a str>,
}

impl<'a> Assembly<'a> {
    /// Append `path` (included from `from`, "file:line") unless it already was.
    fn file(&mut self, path: &str, from: Option<&str>) -> Result<(), String> {
        let Some(&(path, text)) = self.files.iter().find(|(p, _)| *p == path) else {
            return Err(match from {
                Some(at) => format!("{at}: no shader {path} under shaders/"),
                None => format!("no shader {path} under shaders/"),
            });
        };
        if self.stack.contains(&path) {
            let mut chain = self.stack.join(" → ");
            let _ = write!(chain, " → {path}");
            return Err(format!("include cycle: {chain}"));
        }
        if !self.included.insert(path) {
            return Ok(());
        }
        self.stack.push(path);
        for (i, line) in text.lines().enumerate() {
            let at = format!("{path}:{}", i + 1);
            let Some(directive) = line.trim_start().strip_prefix("//!") else {
                self.out.push_str(line);
                self.out.push('\n');
                continue;
            };
            let (word, rest) = directive
                .trim()
                .split_once(char::is_whitespace)
                .unwrap_or((directive.trim(), ""));
            match word {
                "include" => self.file(rest.trim(), Some(&at))?,
                "const" => self.constant(rest, &at)?,
                "slot" => self.slot(rest.trim(), &at)?,
                _ => return Err(format!("{at}: unknown directive //!{word}")),
            }
        }
        self.stack.pop();
        Ok(())
    }

    /// `NAME: TYPE [= DEFAULT] [// comment]` → `const NAME: TYPE = VALUE; // comment`.
    fn constant(&mut self, declaration: &str, at: &str) -> Result<(), String> {
        let (declaration, comment) = match declaration.split_once("//") {
            Some((d, c)) => (d, format!(" //{c}")),
            None => (declaration, String::new()),
        };
        let (head, default) = match declaration.split_once('=') {
            Some((h, d)) => (h, Some(d.trim().trim_end_matches(';').trim())),
            None => (declaration, None),
        };
        let Some((name, ty)) = head.split_once(':').map(|(n, t)| (n.trim(), t.trim())) else {
            return Err(format!("{at}: write `//!const NAME: TYPE`"));
        };
        let given = self.shader.constants.iter().find(|(n, _)| n == name);
        let value = match (given, default) {
            (Some((name, value)), _) => {
                if value.type_name() != ty {
                    return Err(format!(
                        "{at}: constant {name} is {ty}, given a {}",
                        value.type_name()
                    ));
                }
                if !self.constants_used.insert(name) {
                    return Err(format!("{at}: constant {name} is declared twice"));
                }
                value
                    .literal()
                    .ok_or_else(|| format!("{at}: constant {name} is not finite"))?
            }
            (None, Some(default)) => default.to_string(),
            (None, None) => return Err(format!("{at}: constant {name} needs a value")),
        };
        let _ = writeln!(self.out, "const {name}: {ty} = {value};{comment}");
        Ok(())
    }

    fn slot(&mut self, name: &str, at: &str) -> Result<(), String> {
        let Some((name, text)) = self.shader.slots.iter().find(|(n, _)| n == name) else {
            return Err(format!("{at}: slot {name} was not filled"));
        };
        if !self.slots_used.insert(name) {
            return Err(format!("{at}: slot {name} appears twice"));
        }
        self.out.push_str(text);
        if !text.ends_with('\n') {
            self.out.push('\n');
        }
        Ok(())
    }
}

/// Every module of `src/gpu/` as (label, WGSL): the roofline copy kernel and the heater
/// (tests/shaders.rs).
pub fn shader_permutations() -> Vec<(String, String)> {
    [crate::gpu::roofline::shader(), crate::gpu::heater::shader()]
        .iter()
        .map(|s| (s.label(), s.source().unwrap_or_else(|e| panic!("{e}"))))
        .collect()
}

#[cfg(test)]
mod tests;

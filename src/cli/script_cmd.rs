//! `golab script FILE.py [args]`: run a Golly script headless. The script runs in the Python
//! interpreter where golab's Python package is installed (`pip install .` in the repository;
//! `--python` names it, else `python3`), through `python -m golab.script`:
//! `import golly` gets golab's headless `golly` module, and what `g.show`, `g.note` and
//! `g.exit` say is printed. golab itself does not link Python, so the binary runs without it.

use std::path::PathBuf;
use std::process::Command;

use clap::Args;

use super::CliError;

/// Arguments of `golab script`.
#[derive(Debug, Args)]
pub struct ScriptArgs {
    /// The Golly script (`.py`).
    pub file: PathBuf,
    /// Arguments for the script (its `sys.argv[1:]`).
    #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
    pub args: Vec<String>,
    /// The Python interpreter with golab's package installed.
    #[arg(long, default_value = "python3")]
    pub python: PathBuf,
}

/// Execute `golab script`.
pub fn run(args: &ScriptArgs) -> Result<(), CliError> {
    if !args.file.is_file() {
        return Err(CliError(format!("{}: no such script", args.file.display())));
    }
    let python = &args.python;
    let status = Command::new(python)
        .args(["-m", "golab.script"])
        .arg(&args.file)
        .args(&args.args)
        .status()
        .map_err(|e| {
            CliError(format!(
                "cannot run {}: {e}; golab script runs scripts in a Python with golab's package \
                 installed (pip install . in golab's repository), named by --python",
                python.display()
            ))
        })?;
    if status.success() {
        Ok(())
    } else {
        Err(CliError(format!(
            "{} failed ({status}); if Python said \"No module named golab\", install golab's \
             package there (pip install . in golab's repository) or name another interpreter \
             with --python",
            args.file.display()
        )))
    }
}

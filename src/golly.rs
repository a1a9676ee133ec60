//! Where Golly lives on a machine, so a Golly user's folders work in golab without being
//! named: its installation (the folder holding `Patterns`, `Rules` and `Scripts` beside the
//! program: Debian's `/usr/share/golly`, a build from source, `/Applications/golly-5.0-mac`,
//! an unpacked Windows zip) and its user folder (`~/.golly`, `~/Library/Application
//! Support/Golly`, `%APPDATA%\Golly`, whose `Rules` holds the user's own rules).
//!
//! The search is a pure function of an [`Environment`] (the OS, home, PATH and Windows
//! folders), so it is tested for every OS on any OS; [`Environment::current`] reads this
//! process's.

use std::path::{Path, PathBuf};

/// Which operating system's conventions to follow.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Os {
    /// Linux and other Unix desktops.
    Linux,
    /// macOS.
    MacOs,
    /// Windows.
    Windows,
}

/// What the search looks at.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Environment {
    /// The conventions.
    pub os: Os,
    /// The user's home folder.
    pub home: Option<PathBuf>,
    /// The folders of `PATH`, in order.
    pub path: Vec<PathBuf>,
    /// Windows: `%APPDATA%`.
    pub appdata: Option<PathBuf>,
    /// Windows: `%ProgramFiles%` and `%ProgramFiles(x86)%`.
    pub program_files: Vec<PathBuf>,
}

impl Environment {
    /// This process's environment.
    pub fn current() -> Environment {
        let os = if cfg!(target_os = "macos") {
            Os::MacOs
        } else if cfg!(windows) {
            Os::Windows
        } else {
            Os::Linux
        };
        let var = |name: &str| std::env::var_os(name).map(PathBuf::from);
        Environment {
            os,
            home: var("HOME").or_else(|| var("USERPROFILE")),
            path: std::env::var_os("PATH")
                .map(|p| std::env::split_paths(&p).collect())
                .unwrap_or_default(),
            appdata: var("APPDATA"),
            program_files: ["ProgramFiles", "ProgramFiles(x86)"]
                .iter()
                .filter_map(|n| var(n))
                .collect(),
        }
    }
}

/// Folders where an installation of Golly may be, most likely first, whether or not they
/// exist: beside a `golly` or `bgolly` program on PATH (symlinks resolved by the caller's
/// file system), the system and user install locations of `os`, and unpacked release
/// folders (`golly-5.0-gtk-64bit`, `golly-5.0-mac`, `golly-5.0-win-64bit`) in the usual
/// places. `children` lists a folder's subfolders (the file system in use, or a test's).
pub fn install_candidates(
    env: &Environment,
    children: &dyn Fn(&Path) -> Vec<PathBuf>,
) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = Vec::new();
    let exe = if env.os == Os::Windows {
        ["Golly.exe", "bgolly.exe"]
    } else {
        ["golly", "bgolly"]
    };
    for dir in &env.path {
        for name in exe {
            if children(dir)
                .iter()
                .any(|c| c.file_name().is_some_and(|f| f == name))
            {
                out.push(dir.clone());
                // A packaged program's data lives in ../share/golly (Debian: /usr/games and
                // /usr/bin beside /usr/share/golly).
                if let Some(prefix) = dir.parent() {
                    out.push(prefix.join("share/golly"));
                }
            }
        }
    }
    let release = |base: &Path, out: &mut Vec<PathBuf>| {
        let mut found: Vec<PathBuf> = children(base)
            .into_iter()
            .filter(|c| {
                c.file_name()
                    .and_then(|f| f.to_str())
                    .is_some_and(|f| f.to_ascii_lowercase().starts_with("golly"))
            })
            .collect();
        // The newest release first (golly-5.0 before golly-4.3).
        found.sort();
        found.reverse();
        out.extend(found);
    };
    match env.os {
        Os::Linux => {
            for p in [
                "/usr/share/golly",
                "/usr/local/share/golly",
                "/app/share/golly",
                "/opt/golly",
                "/snap/golly/current/share/golly",
            ] {
                out.push(PathBuf::from(p));
            }
            if let Some(home) = &env.home {
                release(home, &mut out);
                release(&home.join("Downloads"), &mut out);
                out.push(home.join(".local/share/golly"));
            }
            release(Path::new("/opt"), &mut out);
        }
        Os::MacOs => {
            release(Path::new("/Applications"), &mut out);
            if let Some(home) = &env.home {
                release(&home.join("Applications"), &mut out);
                release(&home.join("Downloads"), &mut out);
            }
        }
        Os::Windows => {
            for base in &env.program_files {
                release(base, &mut out);
            }
            if let Some(home) = &env.home {
                release(home, &mut out);
                release(&home.join("Downloads"), &mut out);
                release(&home.join("Desktop"), &mut out);
            }
        }
    }
    let mut seen = std::collections::HashSet::new();
    out.retain(|p| seen.insert(p.clone()));
    out
}

/// Golly's user folder (its `datadir`): `~/.golly` on Linux, `~/Library/Application
/// Support/Golly` on macOS, `%APPDATA%\Golly` on Windows.
pub fn user_folder(env: &Environment) -> Option<PathBuf> {
    match env.os {
        Os::Linux => env.home.as_ref().map(|h| h.join(".golly")),
        Os::MacOs => env
            .home
            .as_ref()
            .map(|h| h.join("Library/Application Support/Golly")),
        Os::Windows => env.appdata.as_ref().map(|a| a.join("Golly")),
    }
}

/// The folders of an installation that exists on this machine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Installation {
    /// The folder holding Patterns, Rules and Scripts.
    pub root: PathBuf,
}

impl Installation {
    /// Its pattern collection.
    pub fn patterns(&self) -> PathBuf {
        self.root.join("Patterns")
    }

    /// Its supplied rules.
    pub fn rules(&self) -> PathBuf {
        self.root.join("Rules")
    }

    /// Its scripts.
    pub fn scripts(&self) -> PathBuf {
        self.root.join("Scripts")
    }

    /// Whether `root` holds an installation (a `Patterns` or `Rules` folder).
    pub fn at(root: &Path) -> Option<Installation> {
        (root.join("Patterns").is_dir() || root.join("Rules").is_dir()).then(|| Installation {
            root: root.to_path_buf(),
        })
    }
}

/// The installations on this machine, most likely first.
pub fn installations() -> Vec<Installation> {
    let env = Environment::current();
    let children = |dir: &Path| -> Vec<PathBuf> {
        std::fs::read_dir(dir)
            .map(|rd| rd.filter_map(|e| e.ok().map(|e| e.path())).collect())
            .unwrap_or_default()
    };
    install_candidates(&env, &children)
        .into_iter()
        .filter_map(|c| Installation::at(&c.canonicalize().unwrap_or(c)))
        .fold(Vec::new(), |mut all, i| {
            if !all.contains(&i) {
                all.push(i);
            }
            all
        })
}

/// The user's own rules folder as Golly keeps it (`user_rules=` in GollyPrefs if set,
/// else the user folder's `Rules`), when it exists.
pub fn user_rules() -> Option<PathBuf> {
    let env = Environment::current();
    let folder = user_folder(&env)?;
    let prefs = std::fs::read_to_string(folder.join("GollyPrefs")).ok();
    let named = prefs.as_deref().and_then(user_rules_line);
    let rules = named.unwrap_or_else(|| folder.join("Rules"));
    rules.is_dir().then_some(rules)
}

/// The folder a GollyPrefs file's `user_rules=` line names.
fn user_rules_line(prefs: &str) -> Option<PathBuf> {
    prefs
        .lines()
        .find_map(|l| l.strip_prefix("user_rules="))
        .map(|p| PathBuf::from(p.trim()))
        .filter(|p| !p.as_os_str().is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A file system of folders and files named by `paths`.
    fn fs<'a>(paths: &'a [&'a str]) -> impl Fn(&Path) -> Vec<PathBuf> + 'a {
        move |dir: &Path| {
            paths
                .iter()
                .map(PathBuf::from)
                .filter(|p| p.parent() == Some(dir))
                .collect()
        }
    }

    fn env(os: Os, home: &str, path: &[&str]) -> Environment {
        Environment {
            os,
            home: Some(PathBuf::from(home)),
            path: path.iter().map(PathBuf::from).collect(),
            appdata: (os == Os::Windows).then(|| PathBuf::from(r"C:\Users\ann\AppData\Roaming")),
            program_files: if os == Os::Windows {
                vec![PathBuf::from(r"C:\Program Files")]
            } else {
                vec![]
            },
        }
    }

    #[test]
    fn linux_finds_debian_a_build_beside_its_program_and_an_unpacked_release() {
        let e = env(
            Os::Linux,
            "/home/ann",
            &["/usr/games", "/home/ann/src/golly"],
        );
        let files = fs(&[
            "/usr/games/golly",
            "/home/ann/src/golly/bgolly",
            "/home/ann/golly-4.3-gtk-64bit",
            "/home/ann/golly-5.0-gtk-64bit",
        ]);
        let found = install_candidates(&e, &files);
        let at = |p: &str| found.iter().position(|c| c == Path::new(p));
        // Beside programs on PATH first, their ../share/golly next, then the system folders.
        assert_eq!(at("/usr/games"), Some(0));
        assert!(at("/usr/share/golly").is_some());
        assert!(at("/home/ann/src/golly").unwrap() < at("/usr/local/share/golly").unwrap());
        // The newest unpacked release before the older one.
        assert!(
            at("/home/ann/golly-5.0-gtk-64bit").unwrap()
                < at("/home/ann/golly-4.3-gtk-64bit").unwrap()
        );
        assert_eq!(user_folder(&e), Some(PathBuf::from("/home/ann/.golly")));
    }

    #[test]
    fn macos_finds_the_homebrew_suite_in_applications() {
        let e = env(Os::MacOs, "/Users/ann", &["/opt/homebrew/bin"]);
        let files = fs(&["/Applications/golly-5.0-mac", "/Applications/Safari.app"]);
        let found = install_candidates(&e, &files);
        assert_eq!(
            found.first(),
            Some(&PathBuf::from("/Applications/golly-5.0-mac"))
        );
        assert!(!found.iter().any(|p| p.ends_with("Safari.app")));
        assert_eq!(
            user_folder(&e),
            Some(PathBuf::from(
                "/Users/ann/Library/Application Support/Golly"
            ))
        );
    }

    #[test]
    fn windows_finds_an_unpacked_zip_and_appdata() {
        let e = env(Os::Windows, r"C:\Users\ann", &[]);
        let pf = PathBuf::from(r"C:\Program Files");
        let release = pf.join("golly-5.0-win-64bit");
        let downloads = PathBuf::from(r"C:\Users\ann").join("Downloads");
        let zip = downloads.join("golly-4.3-win-64bit");
        let names = [release.clone(), zip.clone()];
        let files = move |dir: &Path| -> Vec<PathBuf> {
            names
                .iter()
                .filter(|p| p.parent() == Some(dir))
                .cloned()
                .collect()
        };
        let found = install_candidates(&e, &files);
        assert_eq!(found, vec![release, zip]);
        assert_eq!(
            user_folder(&e),
            Some(PathBuf::from(r"C:\Users\ann\AppData\Roaming").join("Golly"))
        );
    }

    #[test]
    fn golly_prefs_can_move_the_user_rules() {
        let prefs = "prefs_version=1\nuser_rules=/data/my-rules\nmax_patterns=20\n";
        assert_eq!(
            user_rules_line(prefs),
            Some(PathBuf::from("/data/my-rules"))
        );
        assert_eq!(user_rules_line("user_rules=\n"), None);
        assert_eq!(user_rules_line("nothing"), None);
    }

    #[test]
    fn an_installation_is_a_folder_with_patterns_or_rules() {
        // Debian's golly package is installed where the tests run.
        if let Some(i) = Installation::at(Path::new("/usr/share/golly")) {
            assert!(i.rules().join("Life.rule").exists() || i.patterns().is_dir());
        }
        assert_eq!(Installation::at(Path::new("/nonexistent/golly")), None);
    }
}

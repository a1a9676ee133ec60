//! The real window, paused and left alone, must not keep the machine busy: launch the
//! `golab` binary under Xvfb on a small paused world, let it settle, and measure the CPU time
//! its process uses over a few seconds through /proc.

mod common;

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

/// Most CPU an idle, paused window may use, as a share of one core.
const IDLE_LIMIT: f64 = 0.05;

/// User + system CPU seconds of process `pid` so far (fields 14 and 15 of /proc/pid/stat).
fn cpu_seconds(pid: u32, ticks_per_second: f64) -> Option<f64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name (field 2) is in parentheses and may hold spaces: count after it.
    let rest = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let utime: f64 = fields.get(11)?.parse().ok()?;
    let stime: f64 = fields.get(12)?.parse().ok()?;
    Some((utime + stime) / ticks_per_second)
}

fn clock_ticks() -> f64 {
    Command::new("getconf")
        .arg("CLK_TCK")
        .output()
        .ok()
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or(100.0)
}

fn wait_for_pid(file: &Path) -> u32 {
    let start = Instant::now();
    loop {
        if let Some(pid) = std::fs::read_to_string(file)
            .ok()
            .and_then(|s| s.trim().parse().ok())
        {
            return pid;
        }
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "golab did not start under xvfb-run"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn a_paused_idle_window_uses_almost_no_cpu() {
    common::need_tool("xvfb-run");
    let dir = std::env::temp_dir().join(format!("golab-idle-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pid_file = dir.join("pid");
    let script = format!(
        "'{bin}' --size 256 --strategy scalar & echo $! > '{pid}'; wait",
        bin = env!("CARGO_BIN_EXE_golab"),
        pid = pid_file.display()
    );
    let mut xvfb = Command::new("xvfb-run")
        .args(["-a", "-s", "-screen 0 1400x900x24", "sh", "-c", &script])
        .env("HOME", &dir)
        .env("XDG_DATA_HOME", dir.join("data"))
        .env("XDG_CONFIG_HOME", dir.join("config"))
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("xvfb-run starts");
    let pid = wait_for_pid(&pid_file);
    let ticks = clock_ticks();
    // Opening the window, compiling pipelines on the software driver and the first draws.
    std::thread::sleep(Duration::from_secs(8));
    let started = cpu_seconds(pid, ticks).expect("golab is still running after 8 s");
    let clock = Instant::now();
    std::thread::sleep(Duration::from_secs(4));
    let used = cpu_seconds(pid, ticks).expect("golab is still running after 12 s") - started;
    let share = used / clock.elapsed().as_secs_f64();
    let _ = Command::new("kill").arg(pid.to_string()).status();
    let _ = xvfb.wait();
    let _ = std::fs::remove_dir_all(&dir);
    println!("paused and idle: {:.1} % of one core", share * 100.0);
    assert!(
        share < IDLE_LIMIT,
        "paused and idle, golab used {:.1} % of one core (limit {:.0} %)",
        share * 100.0,
        IDLE_LIMIT * 100.0
    );
}

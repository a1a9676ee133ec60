//! Ctrl-C during a long step. Python notices SIGINT only when its main thread runs Python
//! code, and a step runs in Rust with the GIL released, so while any step runs this module
//! puts its own SIGINT handler in front of Python's: it raises the engine's interrupt flag
//! (the hashed universe abandons its step at once, the grid between pieces; either stays
//! whole at a generation boundary) and then calls Python's handler, so that the
//! `KeyboardInterrupt` is raised as usual once the step has returned. The step is always run
//! on a copy of the caller's world (a kept root, or a grid that is only replaced on
//! success), so an interrupted call changes nothing the caller sees.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, LazyLock, Mutex};

use pyo3::exceptions::PyKeyboardInterrupt;
use pyo3::prelude::*;

/// The flag every universe stepped from Python watches.
pub static FLAG: LazyLock<Arc<AtomicBool>> = LazyLock::new(|| Arc::new(AtomicBool::new(false)));

/// Python's SIGINT disposition while ours is installed (`sa_sigaction` as an address).
static PREVIOUS: AtomicUsize = AtomicUsize::new(0);

/// Steps in flight, and the handler saved by the first of them.
static ACTIVE: Mutex<(usize, Option<libc::sigaction>)> = Mutex::new((0, None));

/// The raw flag the signal handler raises (set before the handler is installed).
static RAW_FLAG: AtomicUsize = AtomicUsize::new(0);

extern "C" fn on_sigint(signal: libc::c_int) {
    let flag = RAW_FLAG.load(Ordering::SeqCst) as *const AtomicBool;
    if !flag.is_null() {
        // SAFETY: RAW_FLAG points into FLAG's Arc, which lives for the whole process.
        unsafe { (*flag).store(true, Ordering::SeqCst) };
    }
    let previous = PREVIOUS.load(Ordering::SeqCst);
    if previous != libc::SIG_DFL && previous != libc::SIG_IGN && previous != 0 {
        // SAFETY: `previous` is the plain handler Python installed for SIGINT.
        let handler: extern "C" fn(libc::c_int) = unsafe { std::mem::transmute(previous) };
        handler(signal);
    }
}

/// Our handler in front of Python's for as long as it lives.
struct Guard;

impl Guard {
    fn install() -> Guard {
        let mut active = ACTIVE.lock().unwrap_or_else(|e| e.into_inner());
        if active.0 == 0 {
            RAW_FLAG.store(Arc::as_ptr(&FLAG) as usize, Ordering::SeqCst);
            // SAFETY: plain sigaction calls with zeroed, then filled, structures.
            unsafe {
                let mut ours: libc::sigaction = std::mem::zeroed();
                ours.sa_sigaction = on_sigint as *const () as usize;
                libc::sigemptyset(&mut ours.sa_mask);
                let mut old: libc::sigaction = std::mem::zeroed();
                if libc::sigaction(libc::SIGINT, &ours, &mut old) == 0 {
                    // A handler taking siginfo is not chained (Python installs a plain one).
                    let plain = old.sa_flags & libc::SA_SIGINFO == 0;
                    PREVIOUS.store(if plain { old.sa_sigaction } else { 0 }, Ordering::SeqCst);
                    active.1 = Some(old);
                }
            }
        }
        active.0 += 1;
        Guard
    }
}

impl Drop for Guard {
    fn drop(&mut self) {
        let mut active = ACTIVE.lock().unwrap_or_else(|e| e.into_inner());
        active.0 -= 1;
        if active.0 == 0
            && let Some(old) = active.1.take()
        {
            // SAFETY: puts back the disposition saved by `install`.
            unsafe { libc::sigaction(libc::SIGINT, &old, std::ptr::null_mut()) };
        }
    }
}

/// Run `work` with the GIL released and Ctrl-C able to interrupt it through [`FLAG`].
/// When Ctrl-C came, the result is dropped and `KeyboardInterrupt` raised (Python's own
/// handler's, where it has one).
pub fn run<T: Send>(py: Python<'_>, work: impl FnOnce() -> T + Send) -> PyResult<T> {
    let out = py.detach(|| {
        let _guard = Guard::install();
        work()
    });
    if FLAG.swap(false, Ordering::SeqCst) {
        py.check_signals()?;
        return Err(PyKeyboardInterrupt::new_err("interrupted"));
    }
    Ok(out)
}

/// Whether Ctrl-C has been pressed during the step in progress (the cancel question).
pub fn raised() -> bool {
    FLAG.load(Ordering::Relaxed)
}

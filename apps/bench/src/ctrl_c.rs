//! Ctrl+C during a match: the first press ends it with the summary so far, the second quits.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// Ctrl+C raises `stop` (the match ends with the summary so far) and, the second time, quits
/// at once. Returns the flag that says it was pressed.
pub fn on_ctrl_c(stop: &Arc<AtomicBool>) -> Arc<AtomicBool> {
    let interrupted = Arc::new(AtomicBool::new(false));
    let (stop, pressed) = (Arc::clone(stop), Arc::clone(&interrupted));
    // Fails only if a handler is already set, which nothing else here does.
    let _ = ctrlc::set_handler(move || {
        if pressed.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
        stop.store(true, Ordering::SeqCst);
    });
    interrupted
}

//! What happens on a bug. With `panic = "abort"` on wasm32 a panic cannot be caught: the wasm
//! traps, and a promise waiting on it would never settle. So the panic hook settles them first:
//! every `score` promise in flight is rejected and every widget told, with the panic's message.
//! The module then counts as stopped (its state may be half-updated), and each later call is
//! refused at once with the same message instead of running on broken state.

use super::failure::{Failure, Kind};
use std::cell::{Cell, RefCell};
use wasm_bindgen::JsValue;

/// Who to tell when the code panics.
#[derive(Clone)]
enum Watcher {
    /// A `score` promise's reject function.
    Reject(js_sys::Function),
    /// A widget's notify function, called with ("error", the error).
    Notify(js_sys::Function),
}

thread_local! {
    static WATCHERS: RefCell<Vec<(u32, Watcher)>> = const { RefCell::new(Vec::new()) };
    static NEXT: Cell<u32> = const { Cell::new(0) };
    static STOPPED: RefCell<Option<String>> = const { RefCell::new(None) };
    static INSTALLED: Cell<bool> = const { Cell::new(false) };
}

/// Sets the panic hook, once.
pub fn install() {
    if INSTALLED.with(|i| i.replace(true)) {
        return;
    }
    // Whatever hook was there (the host's, a test runner's) still runs after ours.
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        report(&info.to_string());
        previous(info);
    }));
}

/// The failure every caller gets once the module has stopped.
pub fn internal_error(message: &str) -> Failure {
    Failure::new(
        Kind::Internal,
        "",
        format!("scorelens stopped after an internal error (please report it): {message}. Reload the page to use it again."),
    )
}

/// The panic's message, once the module has stopped.
pub fn stopped() -> Option<String> {
    STOPPED
        .try_with(|s| s.try_borrow().ok().and_then(|s| s.clone()))
        .ok()
        .flatten()
}

/// Removes its watcher when dropped (the call settled normally).
pub struct Watch(u32);

impl Drop for Watch {
    fn drop(&mut self) {
        let id = self.0;
        let _ = WATCHERS.try_with(|w| {
            if let Ok(mut w) = w.try_borrow_mut() {
                w.retain(|(i, _)| *i != id);
            }
        });
    }
}

fn watch(watcher: Watcher) -> Watch {
    let id = NEXT.with(|n| {
        let id = n.get();
        n.set(id.wrapping_add(1));
        id
    });
    let _ = WATCHERS.try_with(|w| {
        if let Ok(mut w) = w.try_borrow_mut() {
            w.push((id, watcher));
        }
    });
    Watch(id)
}

/// Rejects the promise if the code panics before the watch is dropped.
pub fn watch_reject(reject: js_sys::Function) -> Watch {
    watch(Watcher::Reject(reject))
}

/// Calls `notify("error", error)` if the code panics before the watch is dropped.
pub fn watch_notify(notify: js_sys::Function) -> Watch {
    watch(Watcher::Notify(notify))
}

/// What the panic hook does: log, stop the module, settle everyone waiting. Public for the
/// tests, which cannot panic without stopping their own runner.
pub fn report(message: &str) {
    web_sys::console::error_1(&JsValue::from_str(&format!(
        "scorelens: internal error: {message}"
    )));
    let _ = STOPPED.try_with(|s| {
        if let Ok(mut s) = s.try_borrow_mut() {
            s.get_or_insert_with(|| message.to_string());
        }
    });
    let watchers = WATCHERS
        .try_with(|w| w.try_borrow_mut().map(|mut w| std::mem::take(&mut *w)))
        .ok()
        .and_then(Result::ok)
        .unwrap_or_default();
    let error = internal_error(message).to_js();
    for (_, w) in watchers {
        let _ = match w {
            Watcher::Reject(f) => f.call1(&JsValue::NULL, &error),
            Watcher::Notify(f) => f.call2(&JsValue::NULL, &JsValue::from_str("error"), &error),
        };
    }
}

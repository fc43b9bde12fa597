//! The browser app's page: mounts the Leptos views; scoring happens in the worker bin.

#[cfg(target_arch = "wasm32")]
#[path = "../web/mod.rs"]
mod web;

fn main() {
    #[cfg(target_arch = "wasm32")]
    web::mount();
}

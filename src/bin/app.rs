//! The browser app's page: mounts the Leptos views; scoring happens in the worker bin.

fn main() {
    #[cfg(target_arch = "wasm32")]
    scorelens::web::mount();
}

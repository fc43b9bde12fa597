//! The `scorelens` binary: the command-line face natively; the browser app lives in its own bins.

#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

#[cfg(not(target_arch = "wasm32"))]
mod cli;

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    std::process::exit(cli::run());
}

#[cfg(target_arch = "wasm32")]
fn main() {}

//! Prints the item weights of every bootstrap resample a seed gives for one file, as JSON, so that
//! an independent reference (scripts/reference/bootstrap_reference.py) can recompute the
//! percentile intervals from the same draws. Test tooling only: an example, outside the library's
//! API and the wasm builds.
//! `cargo run --example bootstrap_draws -- FILE SEED RESAMPLES > draws.json`

use scorelens::metrics::bootstrap::Resampler;
use scorelens::{score_sources, Options, Source};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [file, seed, resamples] = args.as_slice() else {
        eprintln!("usage: bootstrap_draws FILE SEED RESAMPLES");
        std::process::exit(2);
    };
    let seed: u64 = seed.parse().expect("SEED is an integer");
    let resamples: u32 = resamples.parse().expect("RESAMPLES is an integer");
    let bytes = std::fs::read(file).expect("FILE is readable");
    let name = std::path::Path::new(file)
        .file_name()
        .map_or(file.clone(), |n| n.to_string_lossy().into_owned());
    let opts = Options {
        sample: Some(usize::MAX),
        ..Options::default()
    };
    let finished =
        score_sources([Source::bytes(name.as_str(), &bytes)], &opts).expect("the file scores");
    let sample = finished.sample.expect("the sample was kept");
    // The draws exactly as `Sample::draws` makes them: units drawn within strata, then each item
    // weighted by how often its unit was drawn.
    let design = sample.design();
    let mut draws = Resampler::new(design.strata_units(|_| true), design.units(), seed);
    let mut weights = Vec::new();
    let mut rows = Vec::new();
    for b in 0..resamples {
        sample.weights(draws.draw(b), |_| true, &mut weights);
        rows.push(weights.clone());
    }
    let out = serde_json::json!({
        "file": name,
        "seed": seed,
        "resamples": resamples,
        "ids": sample.ids().iter().collect::<Vec<_>>(),
        "weights": rows,
    });
    println!("{out}");
}

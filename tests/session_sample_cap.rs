//! `Options::sample` with a cap: a run past the cap frees its bootstrap sample and says so, with
//! the same report; a run within it keeps the same sample as an uncapped one (the browser keeps
//! its memory bounded so).

use scorelens::session::Finished;
use scorelens::{Options, Session};

fn sample_file(name: &str) -> Vec<u8> {
    std::fs::read(format!("{}/www/samples/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

/// Scores `bytes` fed in small chunks (as the browser's worker reads), with `keep` choosing how
/// the sample is kept.
fn run(bytes: &[u8], cap: usize) -> Finished {
    let opts = Options {
        items: Some(1000),
        sample: Some(cap),
        ..Options::default()
    };
    let mut s = Session::new(&opts).unwrap();
    let head = &bytes[..bytes.len().min(scorelens::formats::HEAD)];
    let mut feed = s.add("f.jsonl", head, None);
    for c in bytes.chunks(997) {
        feed.push(c);
    }
    feed.end();
    s.finish().unwrap()
}

#[test]
fn past_the_cap_the_sample_is_freed_and_the_report_is_unchanged() {
    for name in ["choice.jsonl", "cmdb-1500.jsonl", "multi.jsonl"] {
        let bytes = sample_file(name);
        let full = run(&bytes, usize::MAX);
        let n = full.sample.as_ref().unwrap().len();
        assert!(n > 2, "{name}: {n} items");
        assert_eq!(full.sample_dropped, None);
        for cap in [0, 1, n - 1] {
            let capped = run(&bytes, cap);
            assert!(capped.sample.is_none(), "{name} cap {cap}");
            assert_eq!(capped.sample_dropped, Some(n as u64), "{name} cap {cap}");
            assert_eq!(capped.report.to_json(), full.report.to_json(), "{name}");
            assert_eq!(
                capped.explorer.map(|e| e.len()),
                full.explorer.as_ref().map(|e| e.len())
            );
        }
    }
}

#[test]
fn within_the_cap_the_sample_is_the_full_one() {
    let bytes = sample_file("cmdb-1500.jsonl");
    let full = run(&bytes, usize::MAX);
    let n = full.sample.as_ref().unwrap().len();
    let opts = scorelens::BootstrapOptions {
        resamples: 50,
        seed: 7,
    };
    let want = full.sample.unwrap().bootstrap(&opts);
    for cap in [n, n + 1, usize::MAX] {
        let capped = run(&bytes, cap);
        assert_eq!(capped.sample_dropped, None);
        let sample = capped.sample.unwrap();
        assert_eq!(sample.len(), n);
        assert_eq!(sample.bootstrap(&opts), want, "cap {cap}");
    }
}

//! Clustered inference on data drawn from a known model, at the sizes users bring: passages whose
//! questions share a difficulty p_c ~ Beta(2, 2), so the intra-cluster correlation of the 0/1
//! outcomes is 1 / (2 + 2 + 1) = 0.2 and the design effect of a mean over clusters of m items is
//! 1 + (m − 1)·0.2 (Kish 1965). The estimated design effect must find it over repeated draws
//! (and find 1 when there is no correlation); the cluster bootstrap's 95% interval must cover
//! the true mean 95% of the time within three standard errors of that share, where the item
//! bootstrap, told nothing of the clusters, must not.

use scorelens::metrics::bootstrap::{BootstrapOptions, ClusterBy};
use scorelens::metrics::clustered::clustered_mean;
use scorelens::{score_sources, Options, Source};

/// xorshift64*: a few lines, seeded, the same everywhere.
struct Rng(u64);

impl Rng {
    fn unit(&mut self) -> f64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Beta(2, 2): the middle of three uniforms.
    fn beta22(&mut self) -> f64 {
        let mut u = [self.unit(), self.unit(), self.unit()];
        u.sort_by(f64::total_cmp);
        u[1]
    }
}

/// One draw: `clusters` passages of `m` questions, 0/1 outcomes; `shared` whether a passage's
/// questions share its difficulty (else every question has its own).
fn draw(rng: &mut Rng, clusters: usize, m: usize, shared: bool) -> Vec<f64> {
    let mut out = Vec::with_capacity(clusters * m);
    for _ in 0..clusters {
        let p = rng.beta22();
        for _ in 0..m {
            let p = if shared { p } else { rng.beta22() };
            out.push(f64::from(u8::from(rng.unit() < p)));
        }
    }
    out
}

#[test]
fn the_design_effect_is_one_plus_m_minus_one_times_the_icc() {
    let (clusters, m, draws) = (100, 5, 300);
    let of: Vec<u32> = (0..clusters * m).map(|i| (i / m) as u32).collect();
    let mut rng = Rng(0x5eed_c1a5);
    let mean_deff = |rng: &mut Rng, shared: bool| {
        let total: f64 = (0..draws)
            .map(|_| {
                let x = draw(rng, clusters, m, shared);
                clustered_mean(&x, &of).unwrap().design_effect()
            })
            .sum();
        total / draws as f64
    };
    // Stated tolerance: 0.1 on the mean of 300 draws (its own spread is about 0.02).
    let correlated = mean_deff(&mut rng, true);
    assert!(
        (correlated - 1.8).abs() < 0.1,
        "deff {correlated}, want 1.8"
    );
    let independent = mean_deff(&mut rng, false);
    eprintln!("mean design effect: {correlated:.4} with ICC 0.2, {independent:.4} without");
    assert!(
        (independent - 1.0).abs() < 0.1,
        "deff {independent}, want 1"
    );
}

/// The share of `draws` files whose 95% bootstrap interval of accuracy covers the true 0.5.
fn coverage(cluster: Option<ClusterBy>, draws: usize) -> f64 {
    let (clusters, m) = (40, 10);
    let mut rng = Rng(0xc0de_0001);
    let boot = BootstrapOptions {
        resamples: 199,
        seed: 11,
    };
    let mut covered = 0;
    for d in 0..draws {
        let x = draw(&mut rng, clusters, m, true);
        let mut text = String::new();
        for (i, v) in x.iter().enumerate() {
            let answer = if *v == 1.0 { "A" } else { "B" };
            text += &format!(
                "{{\"id\":\"q{i}\",\"type\":\"choice\",\"options\":[\"A\",\"B\"],\"gold\":\"A\",\"answer\":\"{answer}\",\"passage_id\":\"p{}\"}}\n",
                i / m
            );
        }
        let opts = Options {
            cluster: cluster.clone(),
            bootstrap: Some(BootstrapOptions {
                seed: boot.seed + d as u64,
                ..boot
            }),
            ..Options::default()
        };
        let r = score_sources([Source::bytes("draw.jsonl", text.as_bytes())], &opts)
            .unwrap()
            .report;
        let f = *r.intervals.bootstrap("metrics.accuracy").unwrap();
        covered += usize::from(f.lo <= 0.5 && 0.5 <= f.hi);
    }
    covered as f64 / draws as f64
}

#[test]
fn the_cluster_bootstrap_covers_ninety_five_percent_and_the_item_bootstrap_does_not() {
    let draws = 200;
    let band = 3.0 * (0.95f64 * 0.05 / draws as f64).sqrt();
    // The file's passage_id, by default.
    let clustered = coverage(None, draws);
    assert!(
        (clustered - 0.95).abs() <= band,
        "cluster bootstrap covers {clustered}, want 0.95 ± {band:.3}"
    );
    // Design effect 2.8: the item bootstrap's interval is about 1/√2.8 as wide as it should be.
    let items = coverage(Some(ClusterBy::Off), draws);
    eprintln!("coverage: cluster bootstrap {clustered}, item bootstrap {items}, band ±{band:.4}");
    assert!(
        items < 0.95 - band,
        "the item bootstrap covers {items}: it should fall short"
    );
}

//! Turns the raw per-option numbers a file gives into validated `Probs` (SPEC §1–§2), for every reader.
//!
//! A reader looks up each option's number (`probs`, `logprobs` or `loglikelihoods`) and hands the
//! values here in option order. Whatever fails the SPEC's checks comes back as the reason for an
//! output error, which the reader turns into a warning while still scoring the item.

use crate::items::Probs;
use crate::short::ShortVec;

/// Largest total accepted before the probabilities count as malformed (SPEC §2).
pub const MAX_TOTAL: f64 = 1.02;

/// Which field the numbers came from; it decides how they become probabilities.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// Probabilities as given; options missing from the file are 0.
    Probs,
    /// Log-probabilities of the option as the answer: p = exp(lp); the outside mass is kept.
    Logprobs,
    /// Sequence log-likelihoods: p = softmax over the options; the outside mass is unknown.
    Loglikelihoods,
}

impl Source {
    pub fn field(self) -> &'static str {
        match self {
            Source::Probs => "probs",
            Source::Logprobs => "logprobs",
            Source::Loglikelihoods => "loglikelihoods",
        }
    }
}

/// Builds the item's probabilities from one number per option, `None` where the file has none.
///
/// The values must already be numbers; non-numbers are the reader's to report.
pub fn build(values: &[Option<f64>], source: Source) -> Result<Probs, String> {
    match source {
        Source::Probs => from_probabilities(values, source),
        Source::Logprobs => {
            check_finite(values, source)?;
            let p: Vec<Option<f64>> = values.iter().map(|v| v.map(crate::math::exp)).collect();
            from_probabilities(&p, source)
        }
        Source::Loglikelihoods => softmax(values),
    }
}

/// NaN and +inf are malformed; -inf is the log of probability 0 (lm-eval writes `"-inf"`).
fn check_finite(values: &[Option<f64>], source: Source) -> Result<(), String> {
    match values
        .iter()
        .flatten()
        .find(|v| v.is_nan() || **v == f64::INFINITY)
    {
        Some(v) => Err(format!("{} holds a non-finite value {v}", source.field())),
        None => Ok(()),
    }
}

fn from_probabilities(values: &[Option<f64>], source: Source) -> Result<Probs, String> {
    let mut p = ShortVec::with_capacity(values.len());
    for v in values {
        let x = v.unwrap_or(0.0);
        if !x.is_finite() || x < 0.0 {
            return Err(format!(
                "{} holds an invalid probability {x}",
                source.field()
            ));
        }
        p.push(x);
    }
    let sum: f64 = p.iter().sum();
    if sum > MAX_TOTAL {
        return Err(format!(
            "{} sum to {sum} over the options, above {MAX_TOTAL}",
            source.field()
        ));
    }
    if sum == 0.0 {
        return Err(format!("{} are all zero", source.field()));
    }
    if sum > 1.0 {
        for x in &mut p {
            *x /= sum;
        }
        return Ok(Probs {
            p,
            sum: 1.0,
            outside: Some(0.0),
        });
    }
    Ok(Probs {
        p,
        sum,
        outside: Some(1.0 - sum),
    })
}

fn softmax(values: &[Option<f64>]) -> Result<Probs, String> {
    check_finite(values, Source::Loglikelihoods)?;
    let max = values
        .iter()
        .flatten()
        .copied()
        .fold(f64::NEG_INFINITY, f64::max);
    if max == f64::NEG_INFINITY {
        return Err(if values.iter().any(Option::is_some) {
            "loglikelihoods are all -inf".to_string()
        } else {
            "loglikelihoods has no value for any option".to_string()
        });
    }
    let e: Vec<f64> = values
        .iter()
        .map(|v| v.map_or(0.0, |x| crate::math::exp(x - max)))
        .collect();
    let total: f64 = e.iter().sum();
    let p: ShortVec = e.iter().map(|x| x / total).collect();
    let sum = p.iter().sum();
    Ok(Probs {
        p,
        sum,
        outside: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn probs(v: &[f64]) -> Result<Probs, String> {
        let v: Vec<Option<f64>> = v.iter().map(|&x| Some(x)).collect();
        build(&v, Source::Probs)
    }

    #[test]
    fn total_below_one_keeps_the_outside_mass() {
        let p = probs(&[0.5, 0.3]).unwrap();
        assert_eq!(p.p.to_vec(), vec![0.5, 0.3]);
        assert_eq!(p.sum, 0.8);
        assert!((p.outside.unwrap() - 0.2).abs() < 1e-15);
    }

    #[test]
    fn total_between_one_and_the_limit_is_rescaled() {
        let p = probs(&[0.51, 0.5]).unwrap();
        assert_eq!(p.outside, Some(0.0));
        assert_eq!(p.sum, 1.0);
        assert_eq!(p.p.to_vec(), vec![0.51 / 1.01, 0.5 / 1.01]);
    }

    #[test]
    fn total_above_the_limit_is_an_output_error() {
        let e = probs(&[0.6, 0.5]).unwrap_err();
        assert!(e.contains("above 1.02"), "{e}");
        assert!(probs(&[0.52, 0.5]).is_ok(), "1.02 itself is accepted");
    }

    #[test]
    fn negative_and_all_zero_are_output_errors() {
        assert!(probs(&[-0.1, 0.5])
            .unwrap_err()
            .contains("invalid probability"));
        assert!(probs(&[0.0, 0.0]).unwrap_err().contains("all zero"));
    }

    #[test]
    fn missing_options_count_as_zero() {
        let p = build(&[None, Some(0.7)], Source::Probs).unwrap();
        assert_eq!(p.p.to_vec(), vec![0.0, 0.7]);
    }

    #[test]
    fn logprobs_are_exponentiated_and_keep_outside_mass() {
        let p = build(&[Some(0.5f64.ln()), Some(0.25f64.ln())], Source::Logprobs).unwrap();
        assert!((p.p[0] - 0.5).abs() < 1e-15 && (p.p[1] - 0.25).abs() < 1e-15);
        assert!((p.outside.unwrap() - 0.25).abs() < 1e-15);
    }

    #[test]
    fn minus_infinity_is_probability_zero_and_nan_or_plus_infinity_malformed() {
        let p = build(
            &[Some(f64::NEG_INFINITY), Some(0.0)],
            Source::Loglikelihoods,
        )
        .unwrap();
        assert_eq!(p.p.to_vec(), vec![0.0, 1.0]);
        let p = build(
            &[Some(f64::NEG_INFINITY), Some(0.5f64.ln())],
            Source::Logprobs,
        )
        .unwrap();
        assert_eq!(p.p.to_vec(), vec![0.0, 0.5]);
        for bad in [f64::NAN, f64::INFINITY] {
            for source in [Source::Logprobs, Source::Loglikelihoods] {
                let e = build(&[Some(bad), Some(-1.0)], source).unwrap_err();
                assert!(e.contains("non-finite"), "{e}");
            }
        }
        let all = [Some(f64::NEG_INFINITY); 2];
        assert!(build(&all, Source::Loglikelihoods)
            .unwrap_err()
            .contains("all -inf"));
        assert!(build(&all, Source::Logprobs)
            .unwrap_err()
            .contains("all zero"));
    }

    #[test]
    fn loglikelihoods_are_a_softmax_with_unknown_outside_mass() {
        let p = build(&[Some(-1.0), Some(-1.0), None], Source::Loglikelihoods).unwrap();
        assert_eq!(p.p.to_vec(), vec![0.5, 0.5, 0.0]);
        assert_eq!(p.outside, None);
        assert!(build(&[None, None], Source::Loglikelihoods).is_err());
    }
}

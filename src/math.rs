//! `ln`, `exp`, `sin` and `tanh` from the `libm` crate on every target, so that a figure computed natively
//! and in the browser's wasm agrees to the last bit (std takes them from glibc natively, from a
//! port of musl's libm in wasm, and the two differ by an ulp on some inputs).

/// The natural logarithm, the same bits on every target.
#[inline]
pub fn ln(x: f64) -> f64 {
    libm::log(x)
}

/// e^x, the same bits on every target.
#[inline]
pub fn exp(x: f64) -> f64 {
    libm::exp(x)
}

/// tanh x, the same bits on every target.
#[inline]
pub fn tanh(x: f64) -> f64 {
    libm::tanh(x)
}

/// sin x, the same bits on every target.
#[inline]
pub fn sin(x: f64) -> f64 {
    libm::sin(x)
}

#[cfg(test)]
mod tests {
    use super::{exp, ln, sin};

    #[test]
    fn agree_with_std_to_an_ulp() {
        for &x in &[1e-300, 0.01, 0.25, 0.5, 0.7, 1.0, 2.0, 10.0, 1e10] {
            assert!((ln(x) - x.ln()).abs() <= 2.0 * f64::EPSILON * x.ln().abs().max(1.0));
        }
        for &x in &[-700.0, -3.5, -0.1, 0.0, 0.1, 1.0, 5.0] {
            assert!((exp(x) - x.exp()).abs() <= 2.0 * f64::EPSILON * x.exp());
        }
        assert_eq!(ln(1.0), 0.0);
        assert_eq!(exp(0.0), 1.0);
        assert!((sin(std::f64::consts::FRAC_PI_2) - 1.0).abs() < 1e-15);
        assert!(ln(0.0) == f64::NEG_INFINITY && exp(f64::NEG_INFINITY) == 0.0);
    }
}

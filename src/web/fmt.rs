//! How figures are written on screen: the core's one formatting module (`crate::fmt`), so that the
//! page, the widget and the HTML report write every number alike.

pub use crate::fmt::*;

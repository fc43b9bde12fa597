//! What `score` accepts: a string, a Uint8Array (or ArrayBuffer), a Blob or File, or an array of
//! them, read as one run. Strings and byte arrays are copied at once; Blobs are read in chunks
//! while scoring, so a large File never sits in memory whole.

use super::failure::{Failure, Kind};
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{Blob, File};

/// The bytes of one input, or the Blob to read them from.
pub enum Data {
    Bytes(Vec<u8>),
    Blob(Blob),
}

/// One input file with the name the report gives it.
pub struct Source {
    pub name: String,
    pub data: Data,
}

impl Source {
    pub fn file(file: File) -> Source {
        Source {
            name: file.name(),
            data: Data::Blob(file.into()),
        }
    }
}

/// The name of an input that carries none: `input`, or `input-1`, `input-2`, … in an array.
/// A File keeps its own name; wrap bytes in `new File([bytes], name)` to name them.
fn fallback(index: Option<usize>) -> String {
    match index {
        None => "input".to_string(),
        Some(i) => format!("input-{}", i + 1),
    }
}

fn one(value: &JsValue, index: Option<usize>) -> Result<Source, Failure> {
    let name = fallback(index);
    let data = if let Some(text) = value.as_string() {
        Data::Bytes(text.into_bytes())
    } else if let Some(bytes) = value.dyn_ref::<js_sys::Uint8Array>() {
        Data::Bytes(bytes.to_vec())
    } else if value.is_instance_of::<js_sys::ArrayBuffer>() {
        Data::Bytes(js_sys::Uint8Array::new(value).to_vec())
    } else if let Some(file) = value.dyn_ref::<File>() {
        let own = file.name();
        return Ok(Source {
            name: if own.is_empty() { name } else { own },
            data: Data::Blob(file.clone().into()),
        });
    } else if let Some(blob) = value.dyn_ref::<Blob>() {
        Data::Blob(blob.clone())
    } else {
        let what = if value.is_null() {
            "null".to_string()
        } else if js_sys::Array::is_array(value) {
            "a nested array".to_string()
        } else {
            value.js_typeof().as_string().unwrap_or_default()
        };
        return Err(Failure::new(
            Kind::Input,
            &name,
            format!("is {what}, not a string, Uint8Array, ArrayBuffer, Blob or File"),
        ));
    };
    Ok(Source { name, data })
}

/// The inputs of one run, in order.
pub fn sources(input: &JsValue) -> Result<Vec<Source>, Failure> {
    let Some(list) = input.dyn_ref::<js_sys::Array>() else {
        return one(input, None).map(|s| vec![s]);
    };
    if list.length() == 0 {
        return Err(Failure::new(
            Kind::Input,
            "",
            "the input is an empty array; give at least one file",
        ));
    }
    let many = list.length() > 1;
    list.iter()
        .enumerate()
        .map(|(i, v)| one(&v, many.then_some(i)))
        .collect()
}

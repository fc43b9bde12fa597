//! Parquet tables in the widget and the API: a source that starts with Parquet's magic bytes is
//! turned into the JSON Lines of its rows before it is scored, by the decoder module that ships
//! beside the entry module (`scorelens_parquet.wasm`), fetched only when a table is met.

use super::failure::{Failure, Kind};
use super::input::{Data, Source};
use crate::web::parquet::{self, MAGIC};
use std::cell::RefCell;
use wasm_bindgen::prelude::*;

thread_local! {
    /// The decoder module's absolute URL, told by the entry module (it alone knows its own URL).
    static MODULE: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Where the Parquet decoder module is: the entry module (scorelens.js) calls this once, with
/// `scorelens_parquet.wasm` beside itself, so that a page at any depth finds it.
#[wasm_bindgen(js_name = locateParquet)]
pub fn locate_parquet(url: String) {
    MODULE.with(|m| *m.borrow_mut() = Some(url));
}

/// True when `source` holds a Parquet table.
async fn is_table(source: &Source) -> bool {
    match &source.data {
        Data::Bytes(b) => b.starts_with(MAGIC),
        Data::Blob(blob) => {
            let Ok(head) = blob.slice_with_f64_and_f64(0.0, MAGIC.len() as f64) else {
                return false;
            };
            match wasm_bindgen_futures::JsFuture::from(head.array_buffer()).await {
                Ok(buf) => js_sys::Uint8Array::new(&buf).to_vec() == MAGIC,
                Err(_) => false,
            }
        }
    }
}

/// `source` as the JSON Lines of its rows when it is a Parquet table, else as it is.
pub async fn as_rows(source: Source) -> Result<Source, Failure> {
    if !is_table(&source).await {
        return Ok(source);
    }
    let fail = |why: String| Failure::new(Kind::Read, &source.name, why);
    let Some(module) = MODULE.with(|m| m.borrow().clone()) else {
        return Err(fail(
            "is a Parquet table, and the Parquet reader's address is not known: load the widget \
             through scorelens.js, which tells it"
                .to_string(),
        ));
    };
    let rows = match &source.data {
        Data::Blob(blob) => parquet::rows(&module, blob).await,
        Data::Bytes(bytes) => parquet::rows_of_bytes(&module, bytes).await,
    }
    .map_err(fail)?;
    Ok(Source {
        name: source.name,
        data: Data::Bytes(rows.to_vec()),
    })
}

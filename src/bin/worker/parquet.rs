//! Parquet files in the worker: a dropped table becomes a JSON Lines file of the same name
//! before runs are found, and from then on is read as any JSON Lines file. The decoder module
//! sits in `parquet/` beside the worker's own script (scripts/parquet_module.sh), so that the
//! site works from any path; `scorelens::web::parquet` fetches and runs it.

use crate::worker::scope;
use js_sys::Array;
use scorelens::web::parquet;
use web_sys::{File, FilePropertyBag};

/// The module's address, relative to the worker's script.
const MODULE: &str = "parquet/scorelens_parquet.wasm";

/// `file`'s rows as a JSON Lines file of the same name, or why not in the user's words.
pub async fn as_rows(file: &File) -> Result<File, String> {
    let url = web_sys::Url::new_with_base(MODULE, &scope().location().href())
        .map_err(|e| format!("{e:?}"))?
        .href();
    let rows = parquet::rows(&url, file).await?;
    let opts = FilePropertyBag::new();
    opts.set_type("application/jsonl");
    File::new_with_u8_array_sequence_and_options(&Array::of1(&rows), &file.name(), &opts)
        .map_err(|e| format!("{e:?}"))
}

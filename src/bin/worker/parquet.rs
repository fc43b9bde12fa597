//! Parquet files in the worker: the page's Parquet decoder is a wasm module of its own
//! (`parquet-rows/`, built by scripts/parquet_module.sh into `parquet/`), fetched and
//! instantiated the first time a Parquet file is dropped, so that the first page load does not
//! carry it. It has no JS glue (glue would be a script the page preloads): the worker copies the
//! table into the module's memory and reads the rows back through its four exports. A dropped
//! table becomes a JSON Lines file of the same name before runs are found, and from then on is
//! read as any JSON Lines file, with the CLI's figures (the CLI turns it into the same rows).

use crate::worker::scope;
use js_sys::{Array, Function, Object, Reflect, Uint8Array, WebAssembly};
use std::cell::RefCell;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{File, FilePropertyBag, Response};

/// The module's address, beside the worker's own script, so that the site works from any path.
const MODULE: &str = "parquet/scorelens_parquet.wasm";

/// The largest Parquet file the page reads: it is held whole, with the JSON of its rows beside
/// it (the CLI's cap is 1 GiB; a tab has less room).
const CAP: f64 = (512u64 << 20) as f64;

thread_local! {
    /// The module's exports once instantiated: it is fetched once per worker.
    static EXPORTS: RefCell<Option<Object>> = const { RefCell::new(None) };
}

/// A JS error's message, or its debug form.
fn message(e: JsValue) -> String {
    e.dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .unwrap_or_else(|| format!("{e:?}"))
}

/// The module's exports, fetched and instantiated at the first call.
async fn exports() -> Result<Object, String> {
    if let Some(e) = EXPORTS.with(|x| x.borrow().clone()) {
        return Ok(e);
    }
    let url = web_sys::Url::new_with_base(MODULE, &scope().location().href())
        .map_err(message)?
        .href();
    let failed =
        |why: String| format!("the page's Parquet reader ({url}) could not be loaded: {why}");
    let response: Response = JsFuture::from(scope().fetch_with_str(&url))
        .await
        .map_err(|e| failed(message(e)))?
        .unchecked_into();
    if !response.ok() {
        return Err(failed(format!("HTTP {}", response.status())));
    }
    let bytes = JsFuture::from(response.array_buffer().map_err(|e| failed(message(e)))?)
        .await
        .map_err(|e| failed(message(e)))?;
    let made = JsFuture::from(WebAssembly::instantiate_buffer(
        &Uint8Array::new(&bytes).to_vec(),
        &Object::new(),
    ))
    .await
    .map_err(|e| failed(message(e)))?;
    let instance = Reflect::get(&made, &"instance".into()).map_err(message)?;
    let exports: Object = Reflect::get(&instance, &"exports".into())
        .map_err(message)?
        .unchecked_into();
    EXPORTS.with(|x| *x.borrow_mut() = Some(exports.clone()));
    Ok(exports)
}

/// An exported function of the module.
fn export(exports: &Object, name: &str) -> Result<Function, String> {
    Reflect::get(exports, &name.into())
        .ok()
        .and_then(|f| f.dyn_into().ok())
        .ok_or_else(|| format!("the page's Parquet reader has no `{name}`: rebuild the site"))
}

/// The module's memory as bytes (a new view after each call: the memory may have grown).
fn memory(exports: &Object) -> Result<Uint8Array, String> {
    let memory: WebAssembly::Memory = Reflect::get(exports, &"memory".into())
        .map_err(message)?
        .unchecked_into();
    Ok(Uint8Array::new(&memory.buffer()))
}

/// The JSON Lines of a Parquet table's bytes, or why not in the user's words (the CLI's words:
/// both come from `scorelens_parquet::to_json_lines`).
async fn rows(table: &Uint8Array) -> Result<Uint8Array, String> {
    let exports = exports().await?;
    let number = |v: JsValue| v.as_f64().unwrap_or(0.0);
    let len = JsValue::from(table.length());
    let at = export(&exports, "rows_alloc")?
        .call1(&JsValue::NULL, &len)
        .map_err(message)?;
    memory(&exports)?.set(table, number(at.clone()) as u32);
    export(&exports, "rows_convert")?
        .call2(&JsValue::NULL, &at, &len)
        .map_err(message)?;
    let result = number(
        export(&exports, "rows_result")?
            .call0(&JsValue::NULL)
            .map_err(message)?,
    ) as u32;
    let mem = memory(&exports)?;
    let word = |i: u32| {
        let b = mem.subarray(result + 4 * i, result + 4 * i + 4).to_vec();
        u32::from_le_bytes([b[0], b[1], b[2], b[3]])
    };
    let (ok, ptr, len) = (word(0), word(1), word(2));
    // A copy, which outlives the module's next use of its memory.
    let out = Uint8Array::new_with_length(len);
    out.set(&mem.subarray(ptr, ptr + len), 0);
    export(&exports, "rows_free")?
        .call0(&JsValue::NULL)
        .map_err(message)?;
    if ok == 1 {
        Ok(out)
    } else {
        Err(String::from_utf8_lossy(&out.to_vec()).into_owned())
    }
}

/// `file`'s rows as a JSON Lines file of the same name, or why not in the user's words.
pub async fn as_rows(file: &File) -> Result<File, String> {
    if file.size() > CAP {
        return Err(format!(
            "a Parquet table over {} MiB, which the page reads whole: split it into smaller \
             files, or score it with the command-line tool",
            (CAP as u64) >> 20
        ));
    }
    let buf = JsFuture::from(file.array_buffer())
        .await
        .map_err(|e| format!("could not be read: {}", message(e)))?;
    let rows = rows(&Uint8Array::new(&buf)).await?;
    let opts = FilePropertyBag::new();
    opts.set_type("application/jsonl");
    File::new_with_u8_array_sequence_and_options(&Array::of1(&rows), &file.name(), &opts)
        .map_err(message)
}

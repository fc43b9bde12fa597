//! Parquet tables in the browser, for the app's worker and the widget alike: the decoder is a
//! wasm module of its own (`parquet-rows/`, built by scripts/parquet_module.sh), fetched and
//! instantiated the first time a table is read, so that neither the page's first load nor the
//! widget's carries it. It has no JS glue (glue would be a script the page preloads): the table
//! is copied into the module's memory and its rows read back through the module's four exports,
//! as JSON Lines that the session then reads as any JSON Lines file, with the CLI's figures (the
//! CLI turns a table into the same rows, through the same crate).

use js_sys::{Function, Object, Reflect, Uint8Array, WebAssembly};
use std::cell::RefCell;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{Blob, Response};

/// The first bytes of every Parquet file.
pub const MAGIC: &[u8; 4] = b"PAR1";

/// The largest Parquet file the browser reads: it is held whole, with the JSON of its rows
/// beside it (the CLI's cap is 1 GiB; a tab has less room).
pub const CAP: f64 = super::blob::WHOLE_FILE_CAP as f64;

thread_local! {
    /// The module's exports once instantiated: it is fetched once per worker or page.
    static EXPORTS: RefCell<Option<Object>> = const { RefCell::new(None) };
}

/// A JS error's message, or its debug form.
fn message(e: JsValue) -> String {
    e.dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .unwrap_or_else(|| format!("{e:?}"))
}

/// `fetch(url)` in whatever global this runs in (a window or a worker).
async fn fetch(url: &str) -> Result<Response, String> {
    let global = js_sys::global();
    let fetch: Function = Reflect::get(&global, &"fetch".into())
        .map_err(message)?
        .dyn_into()
        .map_err(|_| "this browser has no fetch".to_string())?;
    let promise: js_sys::Promise = fetch
        .call1(&global, &url.into())
        .map_err(message)?
        .dyn_into()
        .map_err(message)?;
    Ok(JsFuture::from(promise)
        .await
        .map_err(message)?
        .unchecked_into())
}

/// The module's exports, fetched from `url` and instantiated at the first call.
async fn exports(url: &str) -> Result<Object, String> {
    if let Some(e) = EXPORTS.with(|x| x.borrow().clone()) {
        return Ok(e);
    }
    let failed = |why: String| format!("the Parquet reader ({url}) could not be loaded: {why}");
    let response = fetch(url).await.map_err(failed)?;
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
        .ok_or_else(|| format!("the Parquet reader has no `{name}`: rebuild the site"))
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
async fn convert(module: &str, table: &Uint8Array) -> Result<Uint8Array, String> {
    let exports = exports(module).await?;
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

/// Why a table of `size` bytes is not read, when it is over the cap.
fn too_big(size: f64) -> Result<(), String> {
    if size > CAP {
        return Err(format!(
            "a Parquet table over {} MiB, which the browser reads whole: split it into smaller \
             files, or score it with the command-line tool",
            (CAP as u64) >> 20
        ));
    }
    Ok(())
}

/// The rows of the Parquet table in `blob` as JSON Lines, decoded by the module at `module` (an
/// absolute URL), or why not in the user's words.
pub async fn rows(module: &str, blob: &Blob) -> Result<Uint8Array, String> {
    too_big(blob.size())?;
    let buf = JsFuture::from(blob.array_buffer())
        .await
        .map_err(|e| format!("could not be read: {}", message(e)))?;
    convert(module, &Uint8Array::new(&buf)).await
}

/// The rows of the Parquet table `table` (its bytes) as JSON Lines, as `rows` gives them.
pub async fn rows_of_bytes(module: &str, table: &[u8]) -> Result<Uint8Array, String> {
    too_big(table.len() as f64)?;
    convert(module, &Uint8Array::from(table)).await
}

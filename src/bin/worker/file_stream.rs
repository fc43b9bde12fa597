//! A dropped file read through its byte stream into one buffer that goes back and forth between
//! the browser and the worker (a BYOB reader), so reading a gigabyte leaves no slice per read for
//! the garbage collector to find (a 1 GB file must score in the page in under 300 MB).
//!
//! Reading slices with `Blob.arrayBuffer()` left each 8 MiB slice to the collector: the worker's
//! JS heap stood at 70–110 MB on a 1 GB file. Here the browser writes into the same 1 MiB
//! buffer every time (the stream detaches it and hands it back with the bytes), and one read is
//! always in flight while the worker parses what came before.

use js_sys::{ArrayBuffer, Reflect, Uint8Array};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{File, ReadableStreamByobReader};

/// Bytes the browser may write per read.
const ROOM: u32 = 1 << 20;

/// A file being read from its start.
pub struct FileStream {
    reader: ReadableStreamByobReader,
    /// The read in flight; none once the stream has ended.
    pending: Option<JsFuture>,
}

fn describe(e: JsValue) -> String {
    format!("{e:?}")
}

impl FileStream {
    /// Opens `file`'s byte stream and asks for its first bytes.
    pub fn open(file: &File) -> Result<Self, String> {
        let reader = ReadableStreamByobReader::new(&file.stream()).map_err(describe)?;
        let mut stream = FileStream {
            reader,
            pending: None,
        };
        stream.ask(&ArrayBuffer::new(ROOM));
        Ok(stream)
    }

    /// Asks the browser to write the next bytes into `buffer`.
    fn ask(&mut self, buffer: &ArrayBuffer) {
        let view = Uint8Array::new(buffer);
        self.pending = Some(JsFuture::from(
            self.reader.read_with_array_buffer_view(&view),
        ));
    }

    /// Appends the file's next bytes to `into` (a read's worth: parsed as it comes); the read
    /// after them is already under way when this returns. `into` gains nothing once the file
    /// has ended.
    pub async fn read_into(&mut self, into: &mut Vec<u8>) -> Result<(), String> {
        let start = into.len();
        while into.len() == start {
            let Some(read) = self.pending.take() else {
                return Ok(());
            };
            let result = read.await.map_err(describe)?;
            if Reflect::get(&result, &"done".into())
                .map_err(describe)?
                .is_truthy()
            {
                return Ok(());
            }
            let view: Uint8Array = Reflect::get(&result, &"value".into())
                .map_err(describe)?
                .dyn_into()
                .map_err(describe)?;
            into.resize(start + view.length() as usize, 0);
            view.copy_to(&mut into[start..]);
            let buffer: ArrayBuffer = view.buffer();
            self.ask(&buffer);
        }
        Ok(())
    }
}

impl Drop for FileStream {
    /// A read stopped early (a cancel, an error) stops the browser's reading too.
    fn drop(&mut self) {
        if self.pending.is_some() {
            let _ = self.reader.cancel();
        }
    }
}

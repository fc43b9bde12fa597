// scorelens embed: the entry module. One <script type="module"> tag defines <scorelens-report>
// and offers the JavaScript API; the WebAssembly is fetched once per page, at the first widget
// or API call, from beside this file.
//
//   <script type="module" src="scorelens.js"></script>
//   <scorelens-report src="results.jsonl" view="reliability"></scorelens-report>
//
//   import { score } from './scorelens.js';
//   const report = await score(file, { profile: 'generic' });

import load, * as wasm from './scorelens_wasm.js';

let loading = null;

// Found from this module's own URL, not the page's: a page at any depth of a docs site, or under
// a project's sub-path, loads the same files.
const WASM_URL = new URL('scorelens_wasm_bg.wasm', import.meta.url).href;
// The Parquet decoder, fetched only when a Parquet table is scored.
const PARQUET_URL = new URL('scorelens_parquet.wasm', import.meta.url).href;

/** The WebAssembly could not be loaded: `url` says from where, `message` what went wrong. */
export class LoadError extends Error {
  constructor(url, cause) {
    super(`could not load its WebAssembly from ${url}: ${cause && cause.message ? cause.message : cause}`);
    this.name = 'LoadError';
    this.kind = 'load';
    this.url = url;
    this.cause = cause;
  }
}

/**
 * Loads the WebAssembly (once: every call returns the same promise). `source` overrides where
 * it comes from (a URL, a Response or a compiled WebAssembly.Module); by default it is
 * scorelens_wasm_bg.wasm beside this module.
 */
export function init(source) {
  if (!loading) {
    const from = source === undefined ? WASM_URL : source;
    const where = typeof from === 'string' || from instanceof URL ? String(from) : 'the source given to init()';
    loading = load({ module_or_path: from }).then(
      () => { wasm.locateParquet(PARQUET_URL); },
      (e) => { throw new LoadError(where, e); },
    );
    // A failed download may be tried again.
    loading.catch(() => { loading = null; });
  }
  return loading;
}

/** Scores one file or several read as one run; resolves to the report, the CLI's JSON. */
export async function score(input, options) {
  await init();
  return wasm.score(input, options);
}

/**
 * Scores each input of the array as one run and ranks them; resolves to the leaderboard, the
 * CLI's `scorelens leaderboard FILES --json`.
 */
export async function leaderboard(inputs, options) {
  await init();
  return wasm.leaderboard(inputs, options);
}

/** The formats scorelens reads: [{ name, describe }]. */
export async function formats() {
  await init();
  return wasm.formats();
}

/** The profiles `score` takes in `options.profile`: [{ name, describe }]. */
export async function profiles() {
  await init();
  return wasm.profiles();
}

/** The scorelens version of the WebAssembly. */
export async function version() {
  await init();
  return wasm.version();
}

// One style sheet for every widget on the page (adopted by each shadow root), made at the
// first widget; a <style> element where constructable style sheets are missing.
let sheet = null;
function style(root) {
  if ('adoptedStyleSheets' in root && typeof CSSStyleSheet === 'function' && 'replaceSync' in CSSStyleSheet.prototype) {
    if (!sheet) {
      sheet = new CSSStyleSheet();
      sheet.replaceSync(wasm.styleSheet());
    }
    root.adoptedStyleSheets = [sheet];
  } else if (!root.querySelector('style')) {
    const el = document.createElement('style');
    el.textContent = wasm.styleSheet();
    root.prepend(el);
  }
}

const ATTRIBUTES = ['src', 'profile', 'view', 'binning', 'theme', 'cluster', 'group-by'];

/**
 * <scorelens-report src profile view binning theme>: a scorecard for a results file served with
 * the page, or a drop zone without `src`. Fires `scored` (detail: the report) and `failed`
 * (detail: the error); `data-state` says empty, loading, ready or error.
 */
export class ScorelensReport extends HTMLElement {
  static get observedAttributes() {
    return ATTRIBUTES;
  }

  #widget = null;
  #report = null;
  #error = null;

  /** The last report shown, or null. */
  get report() {
    return this.#report;
  }

  /** Why the widget shows no report (a ScorelensError), or null. */
  get error() {
    return this.#error;
  }

  connectedCallback() {
    const root = this.shadowRoot ?? this.attachShadow({ mode: 'open' });
    if (this.#widget) return;
    if (!this.hasAttribute('data-state')) this.setAttribute('data-state', 'loading');
    init().then(() => {
      if (!this.isConnected || this.#widget) return;
      style(root);
      this.#widget = wasm.mountReport(root, this, (state, detail) => this.#notify(root, state, detail));
    }).catch((e) => this.#broken(root, e));
  }

  disconnectedCallback() {
    // Moved elsewhere in the document: connectedCallback mounts it again.
    this.#widget?.free();
    this.#widget = null;
  }

  attributeChangedCallback(name, old, value) {
    if (old !== value) this.#widget?.attributeChanged(name, value);
  }

  #notify(root, state, detail) {
    if (state === 'ready') {
      this.#report = detail;
      this.#error = null;
      this.dispatchEvent(new CustomEvent('scored', { detail }));
    } else if (state === 'error') {
      this.#error = detail;
      this.dispatchEvent(new CustomEvent('failed', { detail }));
      if (detail && detail.kind === 'internal') this.#broken(root, detail);
    }
  }

  // The WebAssembly did not load, or stopped: say so in place of the widget (as text), and
  // tell the host page with the same `failed` event a bad file gives.
  #broken(root, error) {
    this.setAttribute('data-state', 'error');
    const p = document.createElement('p');
    p.setAttribute('role', 'alert');
    p.setAttribute('data-testid', 'widget-broken');
    p.textContent = `scorelens could not run: ${error && error.message ? error.message : error}`;
    root.replaceChildren(p);
    console.error('scorelens:', error);
    if (error instanceof LoadError) {
      this.#error = error;
      this.dispatchEvent(new CustomEvent('failed', { detail: error }));
    }
  }
}

if (typeof customElements !== 'undefined' && !customElements.get('scorelens-report')) {
  customElements.define('scorelens-report', ScorelensReport);
}

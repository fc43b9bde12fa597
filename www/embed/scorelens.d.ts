// Types of the scorelens embed entry module (scorelens.js). The report's types come from the
// module wasm-bindgen generates (scorelens_wasm.d.ts, from www/embed/types.d.ts).
import type { Input, Leaderboard, Named, Report, ScoreOptions } from './scorelens_wasm.js';

export type {
  Bin, Board, Calibration, FileSummary, GroupFigures, IcFigures, IcType, Input, InputFile, Intervals,
  Leaderboard, Metrics, Named, Problem, Report, Reported, RewardBenchFigures, ScopeCheck, ScoreOptions,
  ScorelensError,
} from './scorelens_wasm.js';

/**
 * Loads the WebAssembly once (every call returns the same promise). `source` overrides where it
 * comes from; by default scorelens_wasm_bg.wasm beside this module. The other functions call it.
 */
export function init(source?: string | URL | Request | Response | WebAssembly.Module): Promise<void>;

/**
 * The WebAssembly could not be loaded (a wrong path, a server without `.wasm` files): what every
 * function rejects with then, and the `failed` event's detail on each `<scorelens-report>`.
 */
export class LoadError extends Error {
  readonly kind: 'load';
  /** Where the WebAssembly was fetched from (beside scorelens.js unless `init` was given one). */
  readonly url: string;
  readonly cause: unknown;
}

/**
 * Scores one file, or several read as one run. Resolves to the report (the CLI's JSON);
 * rejects with a `ScorelensError` whose `problems` give file, line and reason.
 */
export function score(input: Input, options?: ScoreOptions): Promise<Report>;

/** Scores each input as one run and ranks them: `scorelens leaderboard FILES --json`. */
export function leaderboard(inputs: Input[], options?: ScoreOptions): Promise<Leaderboard>;

/** The formats scorelens reads. */
export function formats(): Promise<Named[]>;

/** The profiles `score` accepts in `options.profile`. */
export function profiles(): Promise<Named[]>;

/** The scorelens version of the WebAssembly. */
export function version(): Promise<string>;

/** `<scorelens-report>`; defined when the module loads. */
export class ScorelensReport extends HTMLElement {
  /** The last report the element showed, or null. */
  readonly report: Report | null;
  /** Why the element shows no report, or null. */
  readonly error: import('./scorelens_wasm.js').ScorelensError | LoadError | null;
}

declare global {
  interface HTMLElementTagNameMap {
    'scorelens-report': ScorelensReport;
  }
}

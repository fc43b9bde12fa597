// The types of the scorelens report and of the API's arguments. The report is the CLI's
// `scorelens score --json` output as plain objects: a figure that does not apply is `null`.
// tests/embed_types.rs checks these interfaces against a real report's keys.

/** One input file: its text, its bytes, or a Blob or File (a File keeps its name). */
export type InputFile = string | Uint8Array | ArrayBuffer | Blob;

/** One file, or several read together as one run. */
export type Input = InputFile | InputFile[];

export interface ScoreOptions {
  /** A profile from `profiles()`; by default the file's header or `benchmark` field decides. */
  profile?: string;
  /** The bins in `conditioning.bins` and `mixing.bins`: 10 equal-width (the default, as the CLI) or equal-mass (HELM's). */
  binning?: "width" | "mass" | "equal-width" | "equal-mass";
  /** Reject at the first warning instead of skipping the bad line. */
  strict?: boolean;
  /** Items that belong together, as the CLI's `--cluster`: the file's own field (`cluster` or `passage_id`), `group`, `none`, or any other field of the items (a key, a column, `metadata.KEY`, `doc.KEY`); the report then has `intervals.clustered`. */
  cluster?: "cluster" | "passage_id" | "group" | "none" | (string & {});
  /** promptfoo's files: the test var whose values are the groups, as the CLI's `--group-by VAR`; other formats warn that it is unread. */
  groupBy?: string;
}

/** A format or a profile, with one line on what it is. */
export interface Named {
  name: string;
  describe: string;
}

/** A located problem: `file` is empty for the run as a whole, `line` null when no line is to blame. */
export interface Problem {
  file: string;
  line: number | null;
  reason: string;
}

/** What `score` rejects with. */
export interface ScorelensError extends Error {
  name: "ScorelensError";
  kind: "input" | "options" | "profile" | "read" | "strict" | "no-items" | "internal";
  problems: Problem[];
}

export interface Report {
  schema: string;
  profile: string;
  model: string | null;
  benchmark: string | null;
  files: FileSummary[];
  items: number;
  skipped: number;
  warnings: Problem[];
  notes: string[];
  reported: Reported[];
  metrics: Metrics;
  conditioning: Calibration;
  mixing: Calibration;
  ic: IcFigures | null;
  multi: { [key: string]: unknown } | null;
  rewardbench: RewardBenchFigures | null;
  /** Whether the file holds the benchmark's frozen counts; null for profiles without them. */
  scope: ScopeCheck | null;
  groups: GroupFigures[];
  intervals: Intervals;
}

/** A benchmark's frozen counts against the file's (SPEC §7), in the same key order. */
export interface ScopeCheck {
  complete: boolean;
  expected: { [count: string]: number };
  found: { [count: string]: number };
}

export interface FileSummary {
  name: string;
  format: string;
  version: string | null;
  mapping: string[];
  items: number;
  skipped: number;
  not_applicable: number;
}

/** A figure the producing tool wrote itself, shown beside ours. */
export interface Reported {
  source: string;
  name: string;
  scope: string;
  value: number;
  note: string;
}

export interface Metrics {
  accuracy: number | null;
  normalized: number | null;
  invalid_share: number | null;
  outside_mass: number | null;
  macro_accuracy: number | null;
  macro_normalized: number | null;
}

/** Calibration under one reading of the probabilities (conditioning or mixing). */
export interface Calibration {
  ece: number | null;
  ece_em: number | null;
  brier: number | null;
  epa: number | null;
  nll: number | null;
  items: number;
  /** The ten equal-width bins. */
  bins: Bin[];
  /** The equal-mass bins behind `ece_em` (up to ten; empty without items). */
  bins_em: Bin[];
}

export interface Bin {
  lo: number;
  hi: number;
  count: number;
  confidence: number | null;
  accuracy: number | null;
  ci_lo: number | null;
  ci_hi: number | null;
  cp_lo: number | null;
  cp_hi: number | null;
}

export interface IcFigures {
  i: number | null;
  i_weighted: number | null;
  c: number | null;
  items: number;
  types: { choice: IcType | null; binary: IcType | null; rating: IcType | null };
  /** CMDB-1500: one top-label ECE over choice and binary items, the Choice ECE term of C. */
  pooled_ece: number | null;
  /** Items with valid probabilities in `pooled_ece`; present only when it is nonzero. */
  pooled_items?: number;
  scopes: { text: { [key: string]: unknown } | null; image: { [key: string]: unknown } | null };
  out_of_scope?: { [tier: string]: number };
}

/** One item type's part of I and C (more keys: see docs/ic.md). */
export interface IcType {
  cc: number | null;
  c: number | null;
  items: number;
  invalid: number;
  /** Top-label ECE (choice, rating) or the ECE of q_yes (binary), conditioning, 10 bins. */
  ece: number | null;
  ece_items: number;
  /** The confidence the ECE bins. */
  ece_confidence: "top_label" | "q_yes";
  /** The items the ECE and TVD cover. */
  ece_scope: "type" | "hard_tier" | "type_fallback";
  /** Brier averaged over the options, every item of the type with valid probabilities. */
  brier: number | null;
  /** Mean -ln max(q[gold], 1e-15), the same items as `brier`. */
  nll: number | null;
  prob_items: number;
  [key: string]: unknown;
}

export interface RewardBenchFigures {
  version: string;
  sections: { [section: string]: number | null };
  subsets: { [subset: string]: number | null };
  /** v1: the mean of the four sections, always; v2: the mean of the six subsets. */
  overall: number | null;
  /** v1 with Prior Sets: (2C + 2CH + 2S + 2R + P) / 9; null otherwise. */
  overall_with_prior_sets: number | null;
  section_items: { [section: string]: number };
  section_details: { [key: string]: unknown }[];
  subset_details: { [key: string]: unknown }[];
  unknown_subsets: string[];
  ties: { [key: string]: unknown } | null;
  margins: { [key: string]: unknown };
  length_baseline: number | null;
  judged_items: number;
}

export interface GroupFigures {
  name: string;
  items: number;
  correct: number;
  accuracy: number | null;
  normalized: number | null;
  invalid_share: number | null;
}

export interface Intervals {
  level: number;
  wilson: { [figure: string]: { lo: number; hi: number } };
  bootstrap: { [key: string]: unknown } | null;
  /** With `cluster`: each mean figure's cluster-robust standard error, design effect, 95% interval, detectable difference and items to halve it (docs/intervals.md). */
  clustered?: { [key: string]: unknown };
}

/** What `leaderboard` resolves to: `scorelens leaderboard FILES --json` (docs/intervals.md). */
export interface Leaderboard {
  schema: string;
  runs: { name: string; model: string | null; profile: string; items: number }[];
  /** Items every run has: every figure is over these. */
  common: number;
  not_shared: { run: string; count: number; ids: string[] }[];
  bootstrap: { [key: string]: unknown };
  tie_rule: string;
  figures: Board[];
  subsets: Board[];
  notes: string[];
}

/** One figure (or one subset's accuracy) across the runs: standings best first, every pair. */
export interface Board {
  figure: string;
  higher_is_better: boolean;
  standings: { [key: string]: unknown }[];
  pairs: { [key: string]: unknown }[];
  leader: string | null;
}

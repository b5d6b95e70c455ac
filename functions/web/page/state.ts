/** Per cell: 'given' (the puzzle), 'entry' (typed while playing) or 'solved' (the API's answer). */
export type Kind = 'given' | 'entry' | 'solved';
/** 'edit': typing sets givens. 'play': givens locked, typing makes entries. */
export type Mode = 'edit' | 'play';
/** What Solve sends: the board as typed, the text box as pasted (one board), or its lines (many). */
export type Source = 'board' | 'text' | 'many';

/** The formats the page reads and writes (each also gzip-compressed). */
export type FileFormat = 'txt' | 'csv';

/** One file (or the text box's lines) being solved: its lines, and the answers as they arrive. */
export interface BatchRun {
  controller: AbortController;
  name: string;
  format: FileFormat;
  gz: boolean;
  /** The CSV header's fields; null for .txt. */
  header: string[] | null;
  /** Each CSV record's fields (header excluded); null for .txt. */
  parsed: string[][] | null;
  rows: string[];
  /** One puzzle per line (the puzzle column of a CSV). */
  puzzles: string[];
  /** Line i's answer, or a hole until it is answered. */
  answers: (string | undefined)[];
  done: number;
  failed: number;
  /** Throttled answers waited out. */
  waits: number;
  /** Non-blank lines. */
  count: number;
}

/** The page's one mutable state, shared by its modules (an ES module cannot assign another's binding). */
export interface PageState {
  /** 81 cells: '' empty, '1'-'9', or a character the API will reject (shown where it is). */
  values: string[];
  kinds: Kind[];
  /** Pencil marks: bit d set for candidate d. */
  marks: number[];
  mode: Mode;
  /** The solution of the givens `solutionOf`, when known (from GET /puzzle or a solve). */
  solution: string;
  solutionOf: string;
  difficulty: string;
  /** Seconds played. */
  elapsed: number;
  timerStart: number;
  timerHandle: number;
  pencil: boolean;
  /** The cell that has the grid's tab stop. */
  current: number;
  source: Source;
  /** A request of Solve, Hint, Check or New puzzle in flight: the others wait. */
  busy: boolean;
  /** The file (or lines of the text box) being solved. */
  batch: BatchRun | null;
}

export const state: PageState = {
  values: new Array<string>(81).fill(''),
  kinds: new Array<Kind>(81).fill('given'),
  marks: new Array<number>(81).fill(0),
  mode: 'edit',
  solution: '',
  solutionOf: '',
  difficulty: '',
  elapsed: 0,
  timerStart: 0,
  timerHandle: 0,
  pencil: false,
  current: 0,
  source: 'board',
  busy: false,
  batch: null,
};

/** Snapshots (JSON of values, kinds, marks) for Undo and Redo. */
export const undoStack: string[] = [];
export const redoStack: string[] = [];
/** Toolkit routes this server answered 404 for. */
export const unavailable = new Set<string>();

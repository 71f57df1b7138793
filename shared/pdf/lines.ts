/**
 * Text lines from text runs. Runs that overlap vertically form a row; a row is cut into separate
 * lines where the horizontal gap is wider than a word space can plausibly be (column gutters,
 * table cells). Inside a line, runs are joined with a space where the glyphs leave a gap.
 */
import type { TextRun } from './runs.ts';

/** A line has a run's geometry; its size and font are those covering most of its characters. */
export type TextLine = TextRun;

/** Two runs are on one row when their vertical extents overlap by this share of the smaller one. */
const ROW_OVERLAP = 0.5;
/** A gap wider than this many ems separates two lines (columns) rather than two words. */
const LINE_GAP_EM = 0.8;
/** A gap wider than this many ems is a word space when the runs do not carry one themselves (poppler's pdftotext uses the same 0.1 em, TextOutputDev minWordBreakSpace). */
const SPACE_GAP_EM = 0.1;
/** List markers often sit a tab away from their text; they are kept on the text's line. */
const MARKER = /^(?:[•◦▪▫■□●○‣⁃∙·*–—-]|\(?(?:\d{1,3}|[a-zA-Z]|[ivxlcIVXLC]{1,5})[.)]|\[\d{1,3}\])$/;
const MARKER_GAP_EM = 3;

interface Row {
  runs: TextRun[];
  /** Vertical extent of the row's largest run: the reference for overlap tests. */
  top: number;
  bottom: number;
  size: number;
}

function overlapShare(aTop: number, aBottom: number, bTop: number, bBottom: number): number {
  const overlap = Math.min(aBottom, bBottom) - Math.max(aTop, bTop);
  const smaller = Math.min(aBottom - aTop, bBottom - bTop);
  return smaller > 0 ? overlap / smaller : 0;
}

function stacked(a: TextRun, b: TextRun): boolean {
  const overlap = Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0);
  return overlap > 1 && overlap > 0.1 * Math.min(a.x1 - a.x0, b.x1 - b.x0);
}

export function textLines(runs: readonly TextRun[]): TextLine[] {
  const lines: TextLine[] = [];
  for (const run of runs) if (!run.horizontal) lines.push(lineOf([run]));

  const rows: Row[] = [];
  const sorted = runs.filter((r) => r.horizontal).sort((a, b) => a.top - b.top || a.x0 - b.x0);
  for (const run of sorted) {
    // Rows are created top-down, so only the most recent ones can still overlap this run.
    let row: Row | undefined;
    for (let i = rows.length - 1; i >= 0 && rows[i].bottom > run.top; i--) {
      // Runs of one line never sit on top of each other: a run that overlaps one of the row's runs
      // horizontally belongs to another line, however the row's extent was stretched by a taller
      // run in a neighbouring column.
      if (overlapShare(rows[i].top, rows[i].bottom, run.top, run.bottom) >= ROW_OVERLAP && !rows[i].runs.some((r) => stacked(r, run))) {
        row = rows[i];
        break;
      }
    }
    if (!row) {
      rows.push({ runs: [run], top: run.top, bottom: run.bottom, size: run.size });
      continue;
    }
    row.runs.push(run);
    if (run.size > row.size) Object.assign(row, { top: run.top, bottom: run.bottom, size: run.size });
  }

  for (const row of rows) {
    const inRow = row.runs.sort((a, b) => a.x0 - b.x0);
    let current: TextRun[] = [];
    for (const run of inRow) {
      const prev = current[current.length - 1];
      if (prev) {
        const gap = run.x0 - Math.max(...current.map((r) => r.x1));
        const em = Math.max(prev.size, run.size);
        const isMarker = current.length === 1 && MARKER.test(prev.text.trim()) && gap < MARKER_GAP_EM * em;
        if (gap > LINE_GAP_EM * em && !isMarker) {
          lines.push(lineOf(current));
          current = [];
        }
      }
      current.push(run);
    }
    if (current.length) lines.push(lineOf(current));
  }
  return lines;
}

function lineOf(runs: TextRun[]): TextLine {
  let text = '';
  let right = -Infinity;
  for (const run of runs) {
    if (text !== '') {
      const gap = run.x0 - right;
      const spaced = /\s$/.test(text) || /^\s/.test(run.text);
      if (!spaced && gap > SPACE_GAP_EM * run.size) text += ' ';
    }
    text += run.text;
    right = Math.max(right, run.x1);
  }
  return {
    text: text.replace(/\s+/g, ' ').trim(),
    x0: Math.min(...runs.map((r) => r.x0)),
    x1: Math.max(...runs.map((r) => r.x1)),
    top: Math.min(...runs.map((r) => r.top)),
    bottom: Math.max(...runs.map((r) => r.bottom)),
    baseline: dominant(runs, (r) => r.baseline),
    size: dominant(runs, (r) => Math.round(r.size * 100) / 100),
    font: dominant(runs, (r) => r.font),
    horizontal: runs[0].horizontal,
  };
}

/** The value of `key` carried by most characters. */
export function dominant<T, K>(items: readonly T[], key: (item: T) => K, weight: (item: T) => number = charCount): K {
  const tally = new Map<K, number>();
  for (const item of items) tally.set(key(item), (tally.get(key(item)) ?? 0) + weight(item));
  let best: K = key(items[0]);
  let most = -1;
  for (const [k, n] of tally) if (n > most) [best, most] = [k, n];
  return best;
}

const charCount = (x: unknown) => ((x as { text?: string }).text ?? '').replace(/\s/g, '').length || 1;

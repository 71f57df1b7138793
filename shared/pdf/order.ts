/**
 * Reading order of the blocks of one page by recursive XY-cut: split into horizontal bands at
 * empty rows, read bands top to bottom; split a band into columns at empty vertical strips, read
 * columns left to right. Consecutive bands that share a column gutter, with paragraphs (boxes of
 * two or more lines) on both sides of it, are merged first: two columns whose paragraph gaps
 * happen to line up are still read column by column, while the rows of a table (one-line cells)
 * are read row by row.
 */

export interface Box {
  x0: number;
  x1: number;
  top: number;
  bottom: number;
  /** Text lines of the box; a box without them counts as one line. */
  lines?: readonly unknown[];
}

/** Narrowest empty vertical strip, in points, taken for a column gutter. */
const MIN_GUTTER = 4;

type Gap = [number, number];

export function readingOrder<T extends Box>(boxes: readonly T[]): T[] {
  return order([...boxes]);
}

function order<T extends Box>(items: T[]): T[] {
  if (items.length <= 1) return items;
  const bands = mergeColumnBands(splitRows(items));
  if (bands.length > 1) return bands.flatMap(order);
  const columns = splitColumns(items);
  if (columns.length > 1) return columns.flatMap(order);
  return items.sort((a, b) => a.top - b.top || a.x0 - b.x0);
}

function splitRows<T extends Box>(items: T[]): T[][] {
  const sorted = [...items].sort((a, b) => a.top - b.top || a.x0 - b.x0);
  const bands: T[][] = [];
  let bottom = -Infinity;
  for (const item of sorted) {
    if (item.top >= bottom) {
      bands.push([item]);
      bottom = item.bottom;
    } else {
      bands[bands.length - 1].push(item);
      bottom = Math.max(bottom, item.bottom);
    }
  }
  return bands;
}

function gutters(items: readonly Box[]): Gap[] {
  const sorted = [...items].sort((a, b) => a.x0 - b.x0);
  const gaps: Gap[] = [];
  let right = sorted[0].x1;
  for (const item of sorted.slice(1)) {
    if (item.x0 - right >= MIN_GUTTER) gaps.push([right, item.x0]);
    right = Math.max(right, item.x1);
  }
  return gaps;
}

function intersect(a: readonly Gap[], b: readonly Gap[]): Gap[] {
  const out: Gap[] = [];
  for (const [a0, a1] of a) {
    for (const [b0, b1] of b) {
      const lo = Math.max(a0, b0);
      const hi = Math.min(a1, b1);
      if (hi - lo >= MIN_GUTTER) out.push([lo, hi]);
    }
  }
  return out;
}

function mergeColumnBands<T extends Box>(bands: T[][]): T[][] {
  const out: T[][] = [];
  let current = bands[0];
  let gaps = gutters(current);
  for (const band of bands.slice(1)) {
    const shared = intersect(gaps, gutters(band)).filter((g) => paragraphsBeside(current, g) && paragraphsBeside(band, g));
    if (shared.length) {
      current = current.concat(band);
      gaps = shared;
    } else {
      out.push(current);
      current = band;
      gaps = gutters(band);
    }
  }
  out.push(current);
  return out;
}

function paragraphsBeside(items: readonly Box[], [left, right]: Gap): boolean {
  const multi = items.filter((b) => (b.lines?.length ?? 1) >= 2);
  return multi.some((b) => b.x1 <= left) && multi.some((b) => b.x0 >= right);
}

function splitColumns<T extends Box>(items: T[]): T[][] {
  const sorted = [...items].sort((a, b) => a.x0 - b.x0);
  const columns: T[][] = [[sorted[0]]];
  let right = sorted[0].x1;
  for (const item of sorted.slice(1)) {
    if (item.x0 - right >= MIN_GUTTER) columns.push([]);
    columns[columns.length - 1].push(item);
    right = Math.max(right, item.x1);
  }
  return columns;
}

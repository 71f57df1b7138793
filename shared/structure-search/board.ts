/**
 * The board of a first-page substructure scan: how the threads share the earliest candidates of
 * one window of rows instead of each taking a range of its own.
 *
 * Every lane (one task per thread) screens the same rows in the same order, so they all number
 * the rows that pass the pattern screen alike: candidate 0, 1, 2 ... (dead rows included, so
 * that a row killed meanwhile cannot shift the numbers). Lane `j` of `L` matches the candidates
 * numbered j, j+L, j+2L ... On the board (one Int32Array in a SharedArrayBuffer) each lane
 * writes the number of the next candidate it will take (so every candidate below it is decided),
 * and the numbers of its hits, at most `need`. The candidates below the smallest of those "next"
 * numbers are decided by all lanes: once they hold `need` hits, the page is known and every lane
 * stops. A lane also stops once it found `need` hits alone (the page cannot need any of its later
 * ones). A lane that has screened its whole window writes DONE as its next.
 *
 * With a range per thread, a common query's page was found by the first range alone while the
 * other threads matched rows the page never needed; here every thread works on the page.
 */

/** A lane's "next" once it screened its whole window. */
export const DONE = 0x7fffffff;

/** Layout: next[L], count[L], then `need` hit numbers per lane. */
export function createBoard(lanes: number, need: number): SharedArrayBuffer {
  const buf = new SharedArrayBuffer(4 * (2 * lanes + lanes * need));
  const b = new Int32Array(buf);
  for (let j = 0; j < lanes; j++) b[j] = j;
  return buf;
}

/** Candidates below this number are decided by every lane. */
export function decidedBelow(b: Int32Array, lanes: number): number {
  let k = DONE;
  for (let j = 0; j < lanes; j++) k = Math.min(k, Atomics.load(b, j));
  return k;
}

/** Hits among the candidates numbered below `k` (each lane's hits are in increasing order). */
export function hitsBelow(b: Int32Array, lanes: number, need: number, k: number): number {
  let n = 0;
  for (let j = 0; j < lanes; j++) {
    const count = Atomics.load(b, lanes + j);
    const base = 2 * lanes + j * need;
    for (let h = 0; h < count && Atomics.load(b, base + h) < k; h++) n++;
  }
  return n;
}

/** Whether the decided candidates hold `need` hits: the page is known. */
export function pageKnown(b: Int32Array, lanes: number, need: number): boolean {
  return hitsBelow(b, lanes, need, decidedBelow(b, lanes)) >= need;
}

/** A lane's side: records its hits and progress on the board. */
export class Lane {
  private readonly b: Int32Array;
  private hits = 0;

  constructor(
    board: SharedArrayBuffer,
    readonly lane: number,
    readonly lanes: number,
    readonly need: number,
  ) {
    this.b = new Int32Array(board);
  }

  /** Candidate `k` (one of this lane's) was matched: a hit or not. Written before `next`, so a reader that sees the progress sees the hit. */
  decided(k: number, hit: boolean): void {
    if (hit) {
      Atomics.store(this.b, 2 * this.lanes + this.lane * this.need + this.hits, k);
      Atomics.store(this.b, this.lanes + this.lane, ++this.hits);
    }
    Atomics.store(this.b, this.lane, k + this.lanes);
  }

  /** The whole window was screened: nothing of it waits for this lane any more. */
  finished(): void {
    Atomics.store(this.b, this.lane, DONE);
  }

  /** Whether this lane can stop: it found `need` hits, or the decided candidates hold the page. */
  enough(): boolean {
    return this.hits >= this.need || pageKnown(this.b, this.lanes, this.need);
  }
}

/**
 * The coordinator's reading once every lane ended: the hits among the decided candidates, by
 * candidate number (`ordinals` and `ids` per lane, as the lanes returned them), and whether the
 * window was screened to its end by every lane.
 */
export function readBoard(board: SharedArrayBuffer, lanes: number, results: { ids: number[]; ordinals: number[] }[]): { ids: number[]; whole: boolean } {
  const k = decidedBelow(new Int32Array(board), lanes);
  const hits: [number, number][] = [];
  for (const r of results) r.ordinals.forEach((o, i) => o < k && hits.push([o, r.ids[i]]));
  hits.sort((a, b) => a[0] - b[0]);
  return { ids: hits.map((h) => h[1]), whole: k === DONE };
}

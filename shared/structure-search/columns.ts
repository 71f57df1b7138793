/**
 * The in-memory screening index of catalog structure search, as columns in SharedArrayBuffers:
 * one process (the api in the inline mode, each worker process in the distributed mode) writes
 * them, and every chemistry thread of that process reads them without a copy (a task carries the
 * buffers, which cross the thread boundary shared). Rows are never changed in place except their
 * `alive` flag: a new or changed molecule is a new row, and the writer compacts the columns
 * (a fresh set of buffers, rows in id order) when dead rows pile up. A task scans rows below the
 * `count` it was given, so rows appended meanwhile are invisible to it, never half-written.
 *
 * Per row: the molecule id, the 2048-bit pattern fingerprint (64 uint32 words), the Morgan
 * fingerprint as sorted on-bit positions (uint16, in a heap), and an RDKit pickle of the
 * molecule (bytes, in a heap) from which a candidate is rebuilt for the exact match test about
 * four times faster than from its SMILES.
 */
import { FP_WORDS } from '../chem/catalog/fingerprints.ts';

export interface IndexView {
  count: number;
  ids: SharedArrayBuffer;
  alive: SharedArrayBuffer;
  pattern: SharedArrayBuffer;
  morganStart: SharedArrayBuffer;
  morganLen: SharedArrayBuffer;
  morganHeap: SharedArrayBuffer;
  pickleStart: SharedArrayBuffer;
  pickleLen: SharedArrayBuffer;
  pickleHeap: SharedArrayBuffer;
}

/** Typed arrays over a view (made per task: views are cheap, buffers are shared). */
export interface IndexArrays {
  count: number;
  ids: Int32Array;
  alive: Uint8Array;
  pattern: Uint32Array;
  morganStart: Uint32Array;
  morganLen: Uint16Array;
  morganHeap: Uint16Array;
  pickleStart: Uint32Array;
  pickleLen: Uint32Array;
  pickleHeap: Uint8Array;
}

export function arraysOf(v: IndexView): IndexArrays {
  return {
    count: v.count,
    ids: new Int32Array(v.ids),
    alive: new Uint8Array(v.alive),
    pattern: new Uint32Array(v.pattern),
    morganStart: new Uint32Array(v.morganStart),
    morganLen: new Uint16Array(v.morganLen),
    morganHeap: new Uint16Array(v.morganHeap),
    pickleStart: new Uint32Array(v.pickleStart),
    pickleLen: new Uint32Array(v.pickleLen),
    pickleHeap: new Uint8Array(v.pickleHeap),
  };
}

/** One row as the writer receives it. */
export interface IndexRow {
  id: number;
  /** 256 bytes. */
  pattern: Uint8Array;
  morgan: Uint16Array;
  pickle: Uint8Array;
}

/** The rows the index holds, in id order, with their keys: what snapshot.ts saves (every column but `alive`). */
export type SnapshotSource = Omit<IndexArrays, 'alive'> & { key1: Uint32Array; key2: Uint32Array };

const sab = (bytes: number) => new SharedArrayBuffer(Math.max(8, bytes));

/** The writer's side: append rows, kill rows, compact. Single writer (one process's main thread). */
export class IndexColumns {
  private a: IndexArrays;
  private v: IndexView;
  private cap: number;
  private morganUsed = 0;
  private pickleUsed = 0;
  /**
   * Where each id's live row is: rows below `ordered` are in id order (found by binary search:
   * a Map of every id cost 28 MB at 700,000 molecules), the rows appended after the first one out
   * of order are in `later` until the next compaction puts every row in order again.
   */
  private ordered = 0;
  private readonly later = new Map<number, number>();
  private liveRows = 0;
  dead = 0;
  /** True while some rows are out of id order (an id re-added after a higher one). */
  unordered = false;

  constructor(capacity = 1024, morganCap = capacity * 64, pickleCap = capacity * 512) {
    this.cap = capacity;
    this.v = {
      count: 0,
      ids: sab(capacity * 4),
      alive: sab(capacity),
      pattern: sab(capacity * FP_WORDS * 4),
      morganStart: sab(capacity * 4),
      morganLen: sab(capacity * 2),
      morganHeap: sab(morganCap * 2),
      pickleStart: sab(capacity * 4),
      pickleLen: sab(capacity * 4),
      pickleHeap: sab(pickleCap),
    };
    this.a = arraysOf(this.v);
  }

  get count(): number {
    return this.a.count;
  }

  get live(): number {
    return this.liveRows;
  }

  /** The live row of an id, if it has one. */
  private rowOf(id: number): number | undefined {
    const later = this.later.get(id);
    if (later !== undefined) return later;
    const { ids, alive } = this.a;
    let lo = 0;
    let hi = this.ordered;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (ids[mid] < id) lo = mid + 1;
      else hi = mid;
    }
    // (an id put again right after itself leaves a dead row before its live one)
    for (let row = lo; row < this.ordered && ids[row] === id; row++) if (alive[row]) return row;
    return undefined;
  }

  /** Bytes held by the buffers (capacity, not only what rows use). */
  get bytes(): number {
    const v = this.v;
    return [v.ids, v.alive, v.pattern, v.morganStart, v.morganLen, v.morganHeap, v.pickleStart, v.pickleLen, v.pickleHeap].reduce((s, b) => s + b.byteLength, 0);
  }

  /** A view for tasks: the current buffers and row count. */
  view(): IndexView {
    return { ...this.v, count: this.a.count };
  }

  private grow(rows: number, morgan: number, pickle: number): void {
    const a = this.a;
    const needRows = a.count + rows > this.cap;
    const needM = this.morganUsed + morgan > a.morganHeap.length;
    const needP = this.pickleUsed + pickle > a.pickleHeap.length;
    if (!needRows && !needM && !needP) return;
    const cap = needRows ? Math.max(this.cap * 2, a.count + rows) : this.cap;
    const mcap = needM ? Math.max(a.morganHeap.length * 2, this.morganUsed + morgan) : a.morganHeap.length;
    const pcap = needP ? Math.max(a.pickleHeap.length * 2, this.pickleUsed + pickle) : a.pickleHeap.length;
    const next = new IndexColumns(cap, mcap, pcap);
    const b = next.a;
    b.ids.set(a.ids.subarray(0, a.count));
    b.alive.set(a.alive.subarray(0, a.count));
    b.pattern.set(a.pattern.subarray(0, a.count * FP_WORDS));
    b.morganStart.set(a.morganStart.subarray(0, a.count));
    b.morganLen.set(a.morganLen.subarray(0, a.count));
    b.morganHeap.set(a.morganHeap.subarray(0, this.morganUsed));
    b.pickleStart.set(a.pickleStart.subarray(0, a.count));
    b.pickleLen.set(a.pickleLen.subarray(0, a.count));
    b.pickleHeap.set(a.pickleHeap.subarray(0, this.pickleUsed));
    b.count = a.count;
    this.cap = cap;
    this.v = next.v;
    this.a = b;
  }

  /** Adds rows (a row whose id is present replaces it). */
  put(rows: IndexRow[]): void {
    if (!rows.length) return;
    this.grow(rows.length, rows.reduce((s, r) => s + r.morgan.length, 0), rows.reduce((s, r) => s + r.pickle.length, 0));
    const a = this.a;
    for (const r of rows) {
      this.remove(r.id);
      const row = a.count;
      if (row > 0 && a.ids[row - 1] > r.id) this.unordered = true;
      if (this.unordered) this.later.set(r.id, row);
      else this.ordered = row + 1;
      a.ids[row] = r.id;
      new Uint8Array(a.pattern.buffer).set(r.pattern.subarray(0, FP_WORDS * 4), row * FP_WORDS * 4);
      a.morganStart[row] = this.morganUsed;
      a.morganLen[row] = r.morgan.length;
      a.morganHeap.set(r.morgan, this.morganUsed);
      this.morganUsed += r.morgan.length;
      a.pickleStart[row] = this.pickleUsed;
      a.pickleLen[row] = r.pickle.length;
      a.pickleHeap.set(r.pickle, this.pickleUsed);
      this.pickleUsed += r.pickle.length;
      a.alive[row] = 1;
      a.count = row + 1;
      this.liveRows++;
    }
  }

  remove(id: number): boolean {
    const row = this.rowOf(id);
    if (row === undefined) return false;
    Atomics.store(this.a.alive, row, 0);
    this.later.delete(id);
    this.liveRows--;
    this.dead++;
    return true;
  }

  /** Worth compacting: many dead rows, or rows out of id order (early stops need id order). */
  get untidy(): boolean {
    return this.unordered || (this.dead > 1024 && this.dead > this.a.count / 4);
  }

  /**
   * The rows to save (snapshot.ts), in id order (compacted first when rows are dead or out of
   * order), each with the key of what it was built from: `keys` lists ids in ascending order with
   * their keys (a build's inputs). The rows saved are never written again: later rows go after
   * them, and a compaction writes fresh buffers.
   */
  snapshotSource(keys: { count: number; ids: Int32Array; key1: Uint32Array; key2: Uint32Array }): SnapshotSource {
    if (this.dead || this.unordered) this.compact();
    const a = this.a;
    const n = a.count;
    const key1 = new Uint32Array(n);
    const key2 = new Uint32Array(n);
    for (let row = 0, k = 0; row < n; row++) {
      while (k < keys.count && keys.ids[k] < a.ids[row]) k++;
      if (k < keys.count && keys.ids[k] === a.ids[row]) {
        key1[row] = keys.key1[k];
        key2[row] = keys.key2[k];
      }
    }
    return { count: n, ids: a.ids, key1, key2, pattern: a.pattern, morganStart: a.morganStart, morganLen: a.morganLen, morganHeap: a.morganHeap, pickleStart: a.pickleStart, pickleLen: a.pickleLen, pickleHeap: a.pickleHeap };
  }

  /** Rewrites the live rows in id order into fresh buffers; tasks holding the old ones finish on them. */
  compact(): void {
    const a = this.a;
    const rows: number[] = [];
    for (let row = 0; row < a.count; row++) if (a.alive[row]) rows.push(row);
    if (this.unordered) rows.sort((x, y) => a.ids[x] - a.ids[y]);
    const morgan = rows.reduce((s, r) => s + a.morganLen[r], 0);
    const pickle = rows.reduce((s, r) => s + a.pickleLen[r], 0);
    const next = new IndexColumns(Math.max(1024, Math.ceil(rows.length * 1.25)), Math.ceil(morgan * 1.25) + 64, Math.ceil(pickle * 1.25) + 512);
    next.put(
      rows.map((r) => ({
        id: a.ids[r],
        pattern: new Uint8Array(a.pattern.buffer, r * FP_WORDS * 4, FP_WORDS * 4),
        morgan: a.morganHeap.subarray(a.morganStart[r], a.morganStart[r] + a.morganLen[r]),
        pickle: a.pickleHeap.subarray(a.pickleStart[r], a.pickleStart[r] + a.pickleLen[r]),
      })),
    );
    Object.assign(this, { a: next.a, v: next.v, cap: next.cap, morganUsed: next.morganUsed, pickleUsed: next.pickleUsed, dead: 0, unordered: false, ordered: next.ordered, liveRows: next.liveRows });
    this.later.clear();
  }
}

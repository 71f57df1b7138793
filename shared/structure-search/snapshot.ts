/**
 * The structure-search index on disk: the rows of the last full build, kept so that the next
 * build reuses them instead of rebuilding each molecule on a thread (RDKit reads its SMILES and
 * writes a pickle: most of a start's index time). A row is reused only when the molecule's id
 * and the key of what it was built from (its stored SMILES and its fingerprints' version, `rowKey`) are the
 * same; any other molecule is built as before. So a snapshot can be stale, or belong to another
 * catalog, without harm: it is a cache, never the truth.
 *
 * File (little-endian): "NPSSIDX1", a u32 header length, the JSON header {format, rows, morgan,
 * pickle}, then, each section padded to 8 bytes: ids i32, key1 u32, key2 u32 (per row), the
 * pattern words (FP_WORDS u32 per row), morganStart u32, morganLen u16, the Morgan heap u16,
 * pickleStart u32, pickleLen u32, the pickle heap. Rows in id order. Written to a temporary
 * file and renamed, so a reader sees a whole file or the previous one.
 */
import { mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { FP_WORDS } from '../chem/catalog/fingerprints.ts';
import type { RowInput } from '../chem/catalog/ports.ts';
import type { IndexRow, SnapshotSource } from './columns.ts';

const MAGIC = 'NPSSIDX1';
/** Bumped when what a row holds changes meaning (then every row is built again). */
const FORMAT = 1;

/**
 * Two 32-bit FNV-1a hashes (different offsets) of what a row is built from: its SMILES and the
 * version of its stored fingerprints (`v`; they are computed from the SMILES, so the two decide
 * them), or, for fingerprints without a version, what they hold. Keyed by the version alone, a
 * build can tell which saved rows it may take before it reads any molecule's fingerprints
 * (`SearchServiceOptions.complete`).
 */
export function rowKey(input: RowInput): [number, number] {
  const fp = input.fingerprints as { v?: unknown } | null | undefined;
  const made = fp && typeof fp === 'object' && typeof fp.v === 'number' ? `v${fp.v}` : fp === undefined ? '' : JSON.stringify(fp);
  const text = `${input.smiles}\u0000${made}`;
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x5bd1e995;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x01000193) ^ (b >>> 13);
  }
  return [a >>> 0, b >>> 0];
}

/** Ids in ascending order with the keys of their rows' inputs, as a build reads them. */
export class BuildKeys {
  count = 0;
  ids = new Int32Array(1024);
  key1 = new Uint32Array(1024);
  key2 = new Uint32Array(1024);

  push(id: number, [k1, k2]: [number, number]): void {
    if (this.count === this.ids.length) {
      const grow = <T extends Int32Array | Uint32Array>(a: T): T => {
        const b = new (a.constructor as new (n: number) => T)(a.length * 2);
        b.set(a);
        return b;
      };
      this.ids = grow(this.ids);
      this.key1 = grow(this.key1);
      this.key2 = grow(this.key2);
    }
    // Pages come in id order; a source that breaks it only costs the snapshot those rows.
    if (this.count && this.ids[this.count - 1] >= id) return;
    this.ids[this.count] = id;
    this.key1[this.count] = k1;
    this.key2[this.count++] = k2;
  }
}

const pad8 = (n: number) => (n + 7) & ~7;

export async function writeSnapshot(path: string, s: SnapshotSource): Promise<number> {
  const n = s.count;
  const morgan = n ? s.morganStart[n - 1] + s.morganLen[n - 1] : 0;
  const pickle = n ? s.pickleStart[n - 1] + s.pickleLen[n - 1] : 0;
  const header = Buffer.from(JSON.stringify({ format: FORMAT, rows: n, morgan, pickle }));
  const head = Buffer.alloc(pad8(MAGIC.length + 4 + header.length));
  head.write(MAGIC, 0, 'latin1');
  head.writeUInt32LE(header.length, MAGIC.length);
  header.copy(head, MAGIC.length + 4);
  const bytes = (a: ArrayBufferView, length: number) => new Uint8Array(a.buffer, a.byteOffset, length);
  const sections = [
    bytes(s.ids, n * 4),
    bytes(s.key1, n * 4),
    bytes(s.key2, n * 4),
    bytes(s.pattern, n * FP_WORDS * 4),
    bytes(s.morganStart, n * 4),
    bytes(s.morganLen, n * 2),
    bytes(s.morganHeap, morgan * 2),
    bytes(s.pickleStart, n * 4),
    bytes(s.pickleLen, n * 4),
    bytes(s.pickleHeap, pickle),
  ];
  await mkdir(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  const fh = await open(tmp, 'w');
  let size = 0;
  try {
    const zeros = new Uint8Array(8);
    // Copied out of the shared buffers in slices through one buffer (the file API takes a plain
    // buffer): a fresh 16 MB buffer per slice left the api's malloc heap 200 MB larger after a save.
    const slice = Buffer.allocUnsafe(Math.min(1 << 24, Math.max(8, ...sections.map((b) => b.length))));
    const put = async (b: Uint8Array) => {
      for (let at = 0; at < b.length; at += slice.length) {
        const part = b.subarray(at, Math.min(b.length, at + slice.length));
        slice.set(part);
        await fh.write(slice, 0, part.length);
      }
      size += b.length;
      const gap = pad8(b.length) - b.length;
      if (gap) await fh.write(zeros.subarray(0, gap));
      size += gap;
    };
    await put(head);
    for (const b of sections) await put(b);
    await fh.sync();
  } finally {
    await fh.close();
  }
  await rename(tmp, path).catch(async (e) => {
    await rm(tmp, { force: true });
    throw e;
  });
  return size;
}

/** A saved index read back: its rows by id and key. */
export class Snapshot {
  private constructor(
    readonly rows: number,
    private readonly ids: Int32Array,
    private readonly key1: Uint32Array,
    private readonly key2: Uint32Array,
    private readonly pattern: Uint8Array,
    private readonly morganStart: Uint32Array,
    private readonly morganLen: Uint16Array,
    private readonly morganHeap: Uint16Array,
    private readonly pickleStart: Uint32Array,
    private readonly pickleLen: Uint32Array,
    private readonly pickleHeap: Uint8Array,
  ) {}

  /** The snapshot at `path`; null when there is none. Throws when the file is not a whole snapshot of this format. */
  static async read(path: string): Promise<Snapshot | null> {
    let file: Buffer;
    try {
      file = await readFile(path);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw e;
    }
    // Typed views need aligned offsets: a buffer of its own starts at 0.
    const buf = file.byteOffset % 8 ? new Uint8Array(file) : new Uint8Array(file.buffer, file.byteOffset, file.length);
    if (buf.length < MAGIC.length + 4 || Buffer.from(buf.subarray(0, MAGIC.length)).toString('latin1') !== MAGIC) throw new Error('not a structure-search snapshot');
    const headerLength = Buffer.from(buf.buffer, buf.byteOffset, buf.length).readUInt32LE(MAGIC.length);
    const header = JSON.parse(Buffer.from(buf.subarray(MAGIC.length + 4, MAGIC.length + 4 + headerLength)).toString('utf8')) as { format: number; rows: number; morgan: number; pickle: number };
    if (header.format !== FORMAT) throw new Error(`snapshot format ${header.format}, not ${FORMAT}`);
    const n = header.rows;
    let at = pad8(MAGIC.length + 4 + headerLength);
    const take = <T>(make: (buffer: ArrayBufferLike, offset: number, length: number) => T, length: number, width: number): T => {
      if (at + length * width > buf.length) throw new Error('the snapshot is truncated');
      const v = make(buf.buffer, buf.byteOffset + at, length);
      at += pad8(length * width);
      return v;
    };
    const i32 = (b: ArrayBufferLike, o: number, l: number) => new Int32Array(b, o, l);
    const u32 = (b: ArrayBufferLike, o: number, l: number) => new Uint32Array(b, o, l);
    const u16 = (b: ArrayBufferLike, o: number, l: number) => new Uint16Array(b, o, l);
    const u8 = (b: ArrayBufferLike, o: number, l: number) => new Uint8Array(b, o, l);
    const ids = take(i32, n, 4);
    const key1 = take(u32, n, 4);
    const key2 = take(u32, n, 4);
    const pattern = take(u8, n * FP_WORDS * 4, 1);
    const morganStart = take(u32, n, 4);
    const morganLen = take(u16, n, 2);
    const morganHeap = take(u16, header.morgan, 2);
    const pickleStart = take(u32, n, 4);
    const pickleLen = take(u32, n, 4);
    const pickleHeap = take(u8, header.pickle, 1);
    for (let i = 1; i < n; i++) if (ids[i - 1] >= ids[i]) throw new Error('the snapshot\'s rows are not in id order');
    return new Snapshot(n, ids, key1, key2, pattern, morganStart, morganLen, morganHeap, pickleStart, pickleLen, pickleHeap);
  }

  /** The saved row of this id when it was built from the same input (views into the snapshot). */
  row(id: number, [k1, k2]: [number, number]): IndexRow | undefined {
    let lo = 0;
    let hi = this.rows - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const v = this.ids[mid];
      if (v < id) lo = mid + 1;
      else if (v > id) hi = mid - 1;
      else {
        if (this.key1[mid] !== k1 || this.key2[mid] !== k2) return undefined;
        const m = this.morganStart[mid];
        const p = this.pickleStart[mid];
        if (m + this.morganLen[mid] > this.morganHeap.length || p + this.pickleLen[mid] > this.pickleHeap.length) return undefined;
        return {
          id,
          pattern: this.pattern.subarray(mid * FP_WORDS * 4, (mid + 1) * FP_WORDS * 4),
          morgan: this.morganHeap.subarray(m, m + this.morganLen[mid]),
          pickle: this.pickleHeap.subarray(p, p + this.pickleLen[mid]),
        };
      }
    }
    return undefined;
  }
}

/**
 * The thread side of catalog structure search: a task scans one range of rows of the shared
 * index (columns.ts). Substructure: the pattern-fingerprint screen in JavaScript, then RDKit's
 * matcher on the molecules that pass, rebuilt from their pickles. Similarity: Tanimoto of Morgan
 * on-bit lists against the query's bits. Queries are compiled once per thread and kept in a
 * small cache (several range tasks of one search land on the same thread).
 */
import { AppError } from '../errors.ts';
import type { Mol, RDKit } from '../chem/core/rdkit.ts';
import { arraysOf, type IndexArrays, type IndexView } from './columns.ts';
import { FP_BITS, FP_WORDS, morganBytes, patternBytes } from '../chem/catalog/fingerprints.ts';

/** `auto`: SMILES when the text parses as SMILES, else SMARTS. */
export type QueryType = 'smiles' | 'smarts' | 'auto';

export interface StructureQuery {
  query: string;
  query_type: QueryType;
}

interface Compiled {
  mol: Mol;
  /** Pattern fingerprint words of the query (substructure). */
  screen: Uint32Array;
  /** 0/1 per Morgan bit of the query, and how many are set (similarity). */
  morgan?: Uint8Array;
  morganCount?: number;
}

const CACHE = 16;
/** Largest query: bigger ones make RDKit's matcher slow on every candidate, and find little. */
export const MAX_QUERY_ATOMS = 120;
const compiled = new Map<string, Compiled>();

/** Reads a query: SMILES as a molecule (RDKit's SMILES semantics), SMARTS as a query molecule. */
export function readQuery(rdkit: RDKit, q: StructureQuery): Mol {
  const text = q.query.trim();
  if (!text) throw new AppError(422, 'The structure query is empty', 'invalid_input');
  const read = (smarts: boolean): Mol | null => {
    let mol: Mol | null = null;
    try {
      mol = smarts ? rdkit.get_qmol(text) : rdkit.get_mol(text);
    } catch (e) {
      if (e instanceof AppError) throw e;
      mol = null;
    }
    if (mol && !mol.is_valid()) {
      mol.delete();
      mol = null;
    }
    return mol;
  };
  const mol = q.query_type === 'auto' ? (read(false) ?? read(true)) : read(q.query_type === 'smarts');
  if (!mol) {
    const what = q.query_type === 'auto' ? 'SMILES or SMARTS' : q.query_type === 'smarts' ? 'SMARTS' : 'SMILES';
    throw new AppError(422, `The structure query is not valid ${what}: ${text.slice(0, 200)}`, 'invalid_input');
  }
  if (mol.get_num_atoms() === 0) {
    mol.delete();
    throw new AppError(422, 'The structure query has no atoms', 'invalid_input');
  }
  return mol;
}

function compile(rdkit: RDKit, q: StructureQuery, withMorgan: boolean): Compiled {
  const key = `${q.query_type}\u0000${q.query}`;
  let c = compiled.get(key);
  if (c) {
    compiled.delete(key);
    compiled.set(key, c);
  } else {
    const mol = readQuery(rdkit, q);
    const atoms = mol.get_num_atoms();
    if (atoms > MAX_QUERY_ATOMS) {
      mol.delete();
      throw new AppError(422, `The structure query is too large to match: ${atoms} atoms (at most ${MAX_QUERY_ATOMS})`, 'invalid_input');
    }
    const p = patternBytes(mol);
    c = { mol, screen: new Uint32Array(p.buffer.slice(p.byteOffset, p.byteOffset + FP_WORDS * 4)) };
    compiled.set(key, c);
    while (compiled.size > CACHE) {
      const [oldest, old] = compiled.entries().next().value as [string, Compiled];
      old.mol.delete();
      compiled.delete(oldest);
    }
  }
  if (withMorgan && !c.morgan) {
    if (q.query_type === 'smarts') throw new AppError(422, 'Similarity search takes a SMILES query, not SMARTS', 'invalid_input');
    const dense = morganBytes(c.mol);
    const bits = new Uint8Array(FP_BITS);
    let n = 0;
    for (let i = 0; i < FP_BITS; i++) if (dense[i >> 3] & (1 << (i & 7))) (bits[i] = 1), n++;
    c.morgan = bits;
    c.morganCount = n;
  }
  return c;
}

export interface SubstructureScan extends StructureQuery {
  index: IndexView;
  from: number;
  to: number;
  use_chirality: boolean;
  /** Stop after this many hits (0: all); `next` then tells where to go on. */
  limit: number;
  /** Also the Tanimoto (Morgan) of each hit to the query, which must then be SMILES (COCONUT's ranking). */
  scores?: boolean;
  /**
   * This range's place among the ranges of its scan, and the scan's stop word (one Int32): the
   * coordinator stores there the last range it still needs once the ranges before hold the page,
   * and a range placed after it ends at once (`next` then tells where it stopped).
   */
  part?: number;
  stop?: SharedArrayBuffer;
}

/** Rows screened between two looks at the stop word. */
const STOP_CHECK_ROWS = 64;

export interface SubstructureResult {
  ids: number[];
  /** With `scores`: the Tanimoto of each hit, in the order of `ids`. */
  scores?: number[];
  /** Row after the last one examined (== `to` when the range was finished). */
  next: number;
  screened: number;
  candidates: number;
}

/**
 * Rows below this keep their molecule between tasks on each thread. Rebuilding a molecule from
 * its pickle costs about five times the match itself (55-60 µs against 10-15 µs for a natural
 * product in RDKit's WebAssembly), and the first page of a common query is found in the first
 * rows (the index is in id order), so those stay built. A kept molecule holds about 13 KB of the
 * thread's WebAssembly memory (8,192 of the benchmark set's took 108 MB), and a thread whose
 * memory doubles is replaced (shared/threads/thread.ts): 512 rows, about 7 MB. Deeper rows are
 * rebuilt for each match and freed at once.
 */
export const KEPT_ROWS = 512;
/** By row: the molecule id and pickle it was built from (checked at each use), and the molecule. */
const kept: ({ id: number; pickle: Uint8Array; mol: Mol } | undefined)[] = [];

function samePickle(kept: Uint8Array, heap: Uint8Array, start: number): boolean {
  for (let i = 0; i < kept.length; i++) if (kept[i] !== heap[start + i]) return false;
  return true;
}

/** The molecule of a row: kept (the same id and pickle bytes), or rebuilt from its pickle. */
function moleculeOf(rdkit: RDKit, a: IndexArrays, row: number): { mol: Mol | null; owned: boolean } {
  const start = a.pickleStart[row];
  const len = a.pickleLen[row];
  const id = a.ids[row];
  const k = row < KEPT_ROWS ? kept[row] : undefined;
  if (k && k.id === id && k.pickle.length === len && samePickle(k.pickle, a.pickleHeap, start)) return { mol: k.mol, owned: false };
  // Embind copies the bytes into the module's heap; it cannot read from a shared buffer.
  const pkl = a.pickleHeap.slice(start, start + len);
  const mol = rdkit.get_mol_from_uint8array(pkl);
  if (!mol || row >= KEPT_ROWS) return { mol, owned: true };
  k?.mol.delete();
  kept[row] = { id, pickle: pkl, mol };
  return { mol, owned: false };
}

function matches(rdkit: RDKit, a: IndexArrays, row: number, query: Mol, params: string): boolean {
  const { mol, owned } = moleculeOf(rdkit, a, row);
  if (!mol) return false;
  try {
    return mol.get_substruct_match(query, params) !== '{}';
  } finally {
    if (owned) mol.delete();
  }
}

/** Tanimoto of one row's Morgan on-bits with the query's (0/1 per bit, `qn` set). */
function tanimoto(a: IndexArrays, row: number, qbits: Uint8Array, qn: number): number {
  const start = a.morganStart[row];
  const n = a.morganLen[row];
  let common = 0;
  for (let i = start, end = start + n; i < end; i++) common += qbits[a.morganHeap[i]];
  const union = qn + n - common;
  return union ? common / union : 0;
}

export function scanSubstructure(rdkit: RDKit, s: SubstructureScan): SubstructureResult {
  const c = compile(rdkit, s, !!s.scores);
  const a = arraysOf(s.index);
  const to = Math.min(s.to, a.count);
  const q = c.screen;
  // Words of the query that have bits: most of the 64 are tested quickly this way.
  const words: number[] = [];
  for (let w = 0; w < FP_WORDS; w++) if (q[w]) words.push(w);
  const params = JSON.stringify({ useChirality: !!s.use_chirality });
  const ids: number[] = [];
  const scores: number[] = [];
  let candidates = 0;
  let screened = 0;
  const stop = s.stop ? new Int32Array(s.stop) : undefined;
  const part = s.part ?? 0;
  const stopped = () => !!stop && part > Atomics.load(stop, 0);
  let row = s.from;
  for (; row < to; row++) {
    if ((row - s.from) % STOP_CHECK_ROWS === 0 && stopped()) break;
    if (!a.alive[row]) continue;
    screened++;
    const base = row * FP_WORDS;
    let pass = true;
    for (let i = 0; i < words.length; i++) {
      const w = words[i];
      if (q[w] & ~a.pattern[base + w]) {
        pass = false;
        break;
      }
    }
    if (!pass) continue;
    candidates++;
    if (matches(rdkit, a, row, c.mol, params)) {
      ids.push(a.ids[row]);
      if (s.scores) scores.push(tanimoto(a, row, c.morgan!, c.morganCount!));
      if (s.limit && ids.length >= s.limit) {
        row++;
        break;
      }
    }
    // A match costs tens of microseconds: look again before the next one.
    if (stopped()) {
      row++;
      break;
    }
  }
  return { ids, ...(s.scores ? { scores } : {}), next: row, screened, candidates };
}

export interface SimilarityScan extends StructureQuery {
  index: IndexView;
  from: number;
  to: number;
  threshold: number;
}

/** Ids and scores at or above the threshold, in row order. */
export function scanSimilarity(rdkit: RDKit, s: SimilarityScan): { ids: number[]; scores: number[] } {
  const c = compile(rdkit, s, true);
  const a = arraysOf(s.index);
  const to = Math.min(s.to, a.count);
  const qbits = c.morgan!;
  const qn = c.morganCount!;
  const ids: number[] = [];
  const scores: number[] = [];
  for (let row = s.from; row < to; row++) {
    if (!a.alive[row]) continue;
    const t = tanimoto(a, row, qbits, qn);
    if (t >= s.threshold) {
      ids.push(a.ids[row]);
      scores.push(t);
    }
  }
  return { ids, scores };
}

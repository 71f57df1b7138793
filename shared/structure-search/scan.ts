/**
 * The thread side of catalog structure search: a task scans rows of the shared index
 * (columns.ts). Substructure: the pattern-fingerprint screen in JavaScript, then RDKit's matcher
 * on the molecules that pass, rebuilt from their pickles; every hit of a range
 * (`scanSubstructure`), or one lane of a first page, which shares the candidates of a window of
 * rows with the other threads (`scanFirstHits`, board.ts). Similarity: Tanimoto of Morgan on-bit
 * lists against the query's bits. Queries are read and compiled in query.ts.
 */
import type { Mol, RDKit } from '../chem/core/rdkit.ts';
import { arraysOf, type IndexArrays, type IndexView } from './columns.ts';
import { FP_WORDS } from '../chem/catalog/fingerprints.ts';
import { Lane } from './board.ts';
import { compile, screenWords, type StructureQuery } from './query.ts';

export interface SubstructureScan extends StructureQuery {
  index: IndexView;
  from: number;
  to: number;
  use_chirality: boolean;
  /** Also the Tanimoto (Morgan) of each hit to the query, which must then be SMILES (COCONUT's ranking). */
  scores?: boolean;
}

export interface SubstructureResult {
  ids: number[];
  /** With `scores`: the Tanimoto of each hit, in the order of `ids`. */
  scores?: number[];
  screened: number;
  candidates: number;
}

/** One lane of a first-page scan of a window of rows (board.ts). */
export interface FirstHitsScan extends StructureQuery {
  index: IndexView;
  from: number;
  to: number;
  use_chirality: boolean;
  /** Hits the page needs from this window. */
  need: number;
  lane: number;
  lanes: number;
  board: SharedArrayBuffer;
}

export interface FirstHitsResult {
  /** This lane's hits, and the candidate number of each (board.ts). */
  ids: number[];
  ordinals: number[];
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

/** `chiral`: RDKit's matcher with useChirality; else its defaults (parsing a details string costs a third of a small match). */
function matches(rdkit: RDKit, a: IndexArrays, row: number, query: Mol, chiral: boolean): boolean {
  const { mol, owned } = moleculeOf(rdkit, a, row);
  if (!mol) return false;
  try {
    return (chiral ? mol.get_substruct_match(query, CHIRAL) : mol.get_substruct_match(query)) !== '{}';
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

const CHIRAL = JSON.stringify({ useChirality: true });

/** Whether a row's pattern bits hold every bit of the query's. */
function passes(a: IndexArrays, row: number, q: Uint32Array, words: number[]): boolean {
  const base = row * FP_WORDS;
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    if (q[w] & ~a.pattern[base + w]) return false;
  }
  return true;
}

/** Every hit of a range, in row order (a count, a ranked scan, filters inside a catalog search). */
export function scanSubstructure(rdkit: RDKit, s: SubstructureScan): SubstructureResult {
  const c = compile(rdkit, s, !!s.scores);
  const a = arraysOf(s.index);
  const to = Math.min(s.to, a.count);
  const words = screenWords(c, s.index, a);
  const ids: number[] = [];
  const scores: number[] = [];
  let candidates = 0;
  let screened = 0;
  for (let row = s.from; row < to; row++) {
    if (!a.alive[row]) continue;
    screened++;
    if (!passes(a, row, c.screen, words)) continue;
    candidates++;
    if (matches(rdkit, a, row, c.mol, s.use_chirality)) {
      ids.push(a.ids[row]);
      if (s.scores) scores.push(tanimoto(a, row, c.morgan!, c.morganCount!));
    }
  }
  return { ids, ...(s.scores ? { scores } : {}), screened, candidates };
}

/**
 * One lane of a first page: screens the window's rows in order, numbers the candidates, matches
 * its own share of them and stops once the board says the page is known (board.ts).
 */
export function scanFirstHits(rdkit: RDKit, s: FirstHitsScan): FirstHitsResult {
  const c = compile(rdkit, s, false);
  const a = arraysOf(s.index);
  const to = Math.min(s.to, a.count);
  const words = screenWords(c, s.index, a);
  const lane = new Lane(s.board, s.lane, s.lanes, s.need);
  const ids: number[] = [];
  const ordinals: number[] = [];
  let ordinal = 0;
  let candidates = 0;
  let row = s.from;
  for (; row < to; row++) {
    // A lane may meet none of its own candidates for a long stretch: look at the board now and then.
    if ((row & 1023) === 0 && lane.enough()) break;
    // Dead rows are numbered too: every lane numbers the same rows alike, whatever a write does meanwhile.
    if (!passes(a, row, c.screen, words)) continue;
    const k = ordinal++;
    if (k % s.lanes !== s.lane) continue;
    if (lane.enough()) break;
    const hit = !!a.alive[row] && (candidates++, matches(rdkit, a, row, c.mol, s.use_chirality));
    if (hit) ids.push(a.ids[row]), ordinals.push(k);
    lane.decided(k, hit);
  }
  if (row >= to) lane.finished();
  return { ids, ordinals, screened: row - s.from, candidates };
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

/**
 * Structure queries on the threads of catalog structure search: reading a query (SMILES or
 * SMARTS), compiling it once per thread (the molecule, its pattern screen, its Morgan bits; a
 * small cache, as several range tasks of one search land on the same thread), and ordering its
 * screen's words for an index.
 */
import { AppError } from '../errors.ts';
import type { Mol, RDKit } from '../chem/core/rdkit.ts';
import type { IndexArrays, IndexView } from './columns.ts';
import { FP_BITS, FP_WORDS, morganBytes, patternBytes } from '../chem/catalog/fingerprints.ts';

/** `auto`: SMILES when the text parses as SMILES, else SMARTS. */
export type QueryType = 'smiles' | 'smarts' | 'auto';

export interface StructureQuery {
  query: string;
  query_type: QueryType;
}

export interface Compiled {
  mol: Mol;
  /** Pattern fingerprint words of the query (substructure). */
  screen: Uint32Array;
  /** The words of `screen` that have bits, most selective first, for an index whose pattern column has `orderedFor` bytes. */
  words?: number[];
  orderedFor?: number;
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

export function compile(rdkit: RDKit, q: StructureQuery, withMorgan: boolean): Compiled {
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

/** Rows of the index sampled to order a query's words (`screenWords`). */
const ORDER_SAMPLE = 512;

/**
 * The words of the query's pattern fingerprint that have bits, those that most rows of the index
 * lack first (counted over a sample of rows spread evenly), so that a row that fails the screen
 * usually fails at its first word: a rare query (beta-lactam, tropane) screens tens of thousands
 * of rows for its first page, and its common bits (carbon chains, rings) would otherwise be
 * tested first, each in vain. Once per query, thread and size of the index's pattern column:
 * a task's buffers arrive as new objects each time, so their size is what tells indexes apart;
 * an order kept for another index of the same size costs only speed, never a hit.
 */
export function screenWords(c: Compiled, v: IndexView, a: IndexArrays): number[] {
  if (c.words && c.orderedFor === v.pattern.byteLength) return c.words;
  const q = c.screen;
  const words: number[] = [];
  for (let w = 0; w < FP_WORDS; w++) if (q[w]) words.push(w);
  const fails = new Float64Array(FP_WORDS);
  const step = Math.max(1, Math.floor(a.count / ORDER_SAMPLE));
  for (let row = 0; row < a.count; row += step) {
    const base = row * FP_WORDS;
    for (const w of words) if (q[w] & ~a.pattern[base + w]) fails[w]++;
  }
  // Ties (and an empty index) keep the word order.
  words.sort((x, y) => fails[y] - fails[x] || x - y);
  c.words = words;
  c.orderedFor = v.pattern.byteLength;
  return words;
}

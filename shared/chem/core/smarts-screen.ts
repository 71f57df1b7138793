/**
 * A necessary-condition screen for SMARTS queries, evaluated in JavaScript on an inventory of
 * the molecule's atom classes and bond types. Each RDKit substructure call costs several
 * microseconds however trivial the query (the descriptors run ~150 fixed queries per
 * molecule), while most queries name an element, a charge, an isotope or a bond the molecule
 * does not have. When the screen says "cannot match", RDKit would have found no match, so the
 * call is skipped; otherwise RDKit answers as before. The screen never decides a match.
 *
 * Soundness rests on three-valued logic: only the primitives below are evaluated, from the
 * molecule JSON RDKit wrote (elements with their aromaticity, atomic numbers, `a` `A` `*`,
 * formal charges, isotope labels, ring membership counts `R`/`Rn` from RDKit's ring info, and
 * plain bond symbols); every other primitive (H counts, degree, valence, ring sizes ...) is
 * "unknown", which never rules a candidate out, and a recursive SMARTS only contributes its
 * first atom. Any syntax not understood here makes the whole pattern unscreenable (always run).
 */
import type { MolJson } from './commonchem.ts';
import {
  AROMATIC, DOUBLE, OTHER, SINGLE, TRIPLE, parseScreen, type AtomClass, type AtomExpr, type ParsedScreen,
} from './smarts-screen-parse.ts';

/**
 * Atom classes are numbered over a fixed domain (119 elements × aromatic × 6 charge codes ×
 * labelled × 4 ring codes = 11424), so per-query caches keyed by class stay bounded.
 */
function classKey(z: number, aromatic: boolean, charge: number, isotope: number, rings: number): number {
  const chargeCode = charge >= -2 && charge <= 2 ? charge + 2 : 5;
  return ((((z * 2 + (aromatic ? 1 : 0)) * 6 + chargeCode) * 2 + (isotope ? 1 : 0)) * 4) + Math.min(rings, 3);
}

function decodeClass(key: number): AtomClass {
  const rings = key % 4;
  const labelled = Math.floor(key / 4) % 2 === 1;
  const chargeCode = Math.floor(key / 8) % 6;
  const za = Math.floor(key / 48);
  return { z: za >> 1, aromatic: (za & 1) === 1, charge: chargeCode === 5 ? undefined : chargeCode - 2, labelled, rings };
}

const TABLE_CAP = 1024;

/**
 * A compiled screen: the query's atom expressions and its bonds, with each bond's allowed
 * molecule bond types as a bit mask. `table` caches, per atom class, the bit mask of query
 * atoms that class may match (at most TABLE_CAP classes per query).
 */
export class SmartsScreen {
  private readonly table = new Map<number, number>();
  readonly full: number;

  readonly edgeA: Int8Array;
  readonly edgeB: Int8Array;
  readonly edgeTypes: Int8Array;

  constructor(readonly atoms: AtomExpr[], edges: ParsedScreen['edges']) {
    this.full = atoms.length === 31 ? 0x7fffffff : (1 << atoms.length) - 1;
    this.edgeA = Int8Array.from(edges, (e) => e.a);
    this.edgeB = Int8Array.from(edges, (e) => e.b);
    this.edgeTypes = Int8Array.from(edges, (e) => e.types);
  }

  /** Query atoms that an atom of class `key` may match. */
  candidates(key: number): number {
    let bits = this.table.get(key);
    if (bits === undefined) {
      bits = 0;
      const c = decodeClass(key);
      for (let q = 0; q < this.atoms.length; q++) if (this.atoms[q](c) !== 0) bits |= 1 << q;
      // Real molecules use a few hundred classes; past the cap, unusual ones are recomputed.
      if (this.table.size < TABLE_CAP) this.table.set(key, bits);
    }
    return bits;
  }
}

/** The screen of one SMARTS, or undefined when it uses syntax the screen does not read. */
export function compileScreen(smarts: string): SmartsScreen | undefined {
  const parsed = parseScreen(smarts);
  // Candidate sets are 31-bit masks over the query atoms.
  if (!parsed || parsed.atoms.length > 31) return undefined;
  return new SmartsScreen(parsed.atoms, parsed.edges);
}

/**
 * The molecule's inventory: its distinct atom classes (classKey) and the distinct
 * (class, bond type, class) triples of its bonds. Undefined when the molecule holds atoms the
 * screen should not reason about (dummies) or more than 30 classes.
 */
export interface ScreenMol {
  keys: Int32Array;
  /** class index a, bond type, class index b (each bond in both directions). */
  triples: Int32Array;
}

export function screenMol(m: MolJson): ScreenMol | undefined {
  const rings = new Int32Array(m.atoms.length);
  for (const ring of m.rings) for (const a of ring) rings[a]++;
  const keys: number[] = [];
  const classOf = new Int32Array(m.atoms.length);
  for (let i = 0; i < m.atoms.length; i++) {
    const { z, chg, isotope } = m.atoms[i];
    if (z <= 0 || z > 118) return undefined;
    const key = classKey(z, m.aromaticAtoms.has(i), chg, isotope, rings[i]);
    let c = keys.indexOf(key);
    if (c < 0) {
      c = keys.push(key) - 1;
      if (c >= 30) return undefined;
    }
    classOf[i] = c;
  }
  const seen = new Set<number>();
  const triples: number[] = [];
  m.bonds.forEach((b, bi) => {
    const t = m.aromaticBonds.has(bi) ? AROMATIC : b.order === 1 ? SINGLE : b.order === 2 ? DOUBLE : b.order === 3 ? TRIPLE : OTHER;
    for (const [x, y] of [[classOf[b.a], classOf[b.b]], [classOf[b.b], classOf[b.a]]]) {
      const key = (x * 8 + t) * 32 + y;
      if (!seen.has(key)) {
        seen.add(key);
        triples.push(x, t, y);
      }
    }
  });
  return { keys: Int32Array.from(keys), triples: Int32Array.from(triples) };
}

/** Per query atom, the molecule classes it may match (scratch space; one thread, no re-entry). */
const classMasks = new Int32Array(31);

/** False only when no substructure match of the screened SMARTS can exist in the molecule. */
export function mayMatch(screen: SmartsScreen | undefined, mol: ScreenMol | undefined): boolean {
  if (!screen || !mol) return true;
  const n = screen.atoms.length;
  classMasks.fill(0, 0, n);
  let covered = 0;
  for (let c = 0; c < mol.keys.length; c++) {
    let bits = screen.candidates(mol.keys[c]);
    covered |= bits;
    while (bits !== 0) {
      const q = 31 - Math.clz32(bits & -bits);
      classMasks[q] |= 1 << c;
      bits &= bits - 1;
    }
  }
  // Some query atom matches no atom of the molecule.
  if (covered !== screen.full) return false;
  const t = mol.triples;
  for (let e = 0; e < screen.edgeA.length; e++) {
    const ma = classMasks[screen.edgeA[e]];
    const mb = classMasks[screen.edgeB[e]];
    const types = screen.edgeTypes[e];
    let found = false;
    for (let k = 0; k < t.length; k += 3) {
      if ((types & (1 << t[k + 1])) !== 0 && (ma & (1 << t[k])) !== 0 && (mb & (1 << t[k + 2])) !== 0) {
        found = true;
        break;
      }
    }
    if (!found) return false;
  }
  return true;
}

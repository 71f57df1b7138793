/**
 * The molecule graph the tautomer enumerator edits. MinimalLib exposes neither atom-level
 * editing nor RDKit's "Kekulé bonds with aromatic flags kept" form that the tautomer SMARTS are
 * written for, but its rdkitjson reader/writer keeps atom order, explicit H counts, chiral tags
 * and bond stereo. So a tautomer lives here as plain data and goes back to RDKit as rdkitjson:
 *  - with aromatic atom flags and Kekulé bond orders (no sanitisation) to match transforms, which
 *    is exactly the `Kekulize(mol, clearAromaticFlags=false)` copy native RDKit matches against;
 *  - as plain Kekulé (sanitised, stereo not re-perceived) to get the aromatic tautomer, its
 *    canonical SMILES and its next Kekulé form.
 */
import type { Mol, RDKit } from '../core/rdkit.ts';
import { readMolJson } from '../core/commonchem.ts';

export interface GraphAtom {
  z: number;
  /** Total hydrogen count (rdkitjson `impHs`; written back it becomes an explicit count). */
  hs: number;
  chg: number;
  nRad: number;
  isotope: number;
  /** Chiral tag as rdkitjson spells it (`unspecified`, `cw`, `ccw`, `other`). */
  stereo: string;
}

export interface GraphBond {
  a: number;
  b: number;
  /** Kekulé order: 1, 2 or 3 (aromatic bonds are written Kekulé by RDKit). */
  order: number;
  /** `unspecified` or an rdkitjson bond stereo (`cis`, `trans`, `either`). */
  stereo: string;
  stereoAtoms?: [number, number];
}

export interface Graph {
  atoms: GraphAtom[];
  bonds: GraphBond[];
  aromaticAtoms: Set<number>;
  aromaticBonds: Set<number>;
  /** Rings (RDKit ring info, atom indices in ring order). */
  rings: number[][];
}

/** Read a molecule's graph (Kekulé bond orders plus the aromaticity RDKit perceived). */
export function readGraph(mol: Mol): Graph {
  const m = readMolJson(mol);
  return { ...m, atoms: m.atoms.map(({ impHs, ...a }) => ({ ...a, hs: impHs })) };
}

export function cloneGraph(g: Graph): Graph {
  return {
    atoms: g.atoms.map((a) => ({ ...a })),
    bonds: g.bonds.map((b) => ({ ...b })),
    aromaticAtoms: new Set(g.aromaticAtoms),
    aromaticBonds: new Set(g.aromaticBonds),
    rings: g.rings,
  };
}

/**
 * rdkitjson text for the graph. Bonds are always written with their Kekulé orders; with
 * `aromaticFlags` the aromatic atoms keep their flag (bond flags are left out on purpose: the
 * reader would turn flagged bonds into aromatic bonds, and the SMARTS need Kekulé ones).
 */
export function writeJson(g: Graph, aromaticFlags: boolean): string {
  const atoms = g.atoms.map((a) => {
    const o: Record<string, unknown> = { z: a.z, impHs: a.hs };
    if (a.chg) o.chg = a.chg;
    if (a.nRad) o.nRad = a.nRad;
    if (a.isotope) o.isotope = a.isotope;
    if (a.stereo !== 'unspecified') o.stereo = a.stereo;
    return o;
  });
  const bonds = g.bonds.map((b) => {
    const o: Record<string, unknown> = { atoms: [b.a, b.b], bo: b.order };
    if (b.stereo !== 'unspecified') {
      o.stereo = b.stereo;
      if (b.stereoAtoms) o.stereoAtoms = b.stereoAtoms;
    }
    return o;
  });
  const molecule: Record<string, unknown> = { atoms, bonds };
  if (aromaticFlags) {
    molecule.extensions = [
      { name: 'rdkitRepresentation', formatVersion: 2, aromaticAtoms: [...g.aromaticAtoms], aromaticBonds: [] },
    ];
  }
  return JSON.stringify({
    rdkitjson: { version: 11 },
    defaults: {
      atom: { z: 6, impHs: 0, chg: 0, nRad: 0, isotope: 0, stereo: 'unspecified' },
      bond: { bo: 1, stereo: 'unspecified' },
    },
    molecules: [molecule],
  });
}

/** The unsanitised Kekulé-with-aromatic-flags molecule the transform SMARTS are matched on. */
export function matchingMol(rdkit: RDKit, g: Graph): Mol | null {
  const mol = rdkit.get_mol(writeJson(g, true), JSON.stringify({ sanitize: false, removeHs: false }));
  if (mol && mol.is_valid()) return mol;
  mol?.delete();
  return null;
}

/**
 * Sanitise a Kekulé graph (aromaticity perceived again) without re-perceiving stereo, as the
 * enumerator does (it keeps the tags it set itself). Null when RDKit rejects the structure.
 */
export function sanitizedMol(rdkit: RDKit, g: Graph): Mol | null {
  let mol: Mol | null = null;
  try {
    mol = rdkit.get_mol(writeJson(g, false), JSON.stringify({ removeHs: false, assignStereo: false }));
  } catch {
    mol = null;
  }
  if (mol && mol.is_valid()) return mol;
  mol?.delete();
  return null;
}

/** Query-bond topology of a SMARTS pattern (pairs of query-atom indices, in bond order). */
export function queryBonds(q: Mol): [number, number][] {
  return readMolJson(q).bonds.map((b) => [b.a, b.b]);
}

/** Substructure matches as atom-index arrays (RDKit defaults: unique, at most 1000). */
export function matchAtoms(mol: Mol, q: Mol): number[][] {
  const raw = JSON.parse(mol.get_substruct_matches(q)) as { atoms: number[] }[] | Record<string, never>;
  return Array.isArray(raw) ? raw.map((m) => m.atoms) : [];
}

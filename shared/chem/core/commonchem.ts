/**
 * The one reader of MinimalLib's molecule JSON (`get_json()`: CommonChem plus RDKit's
 * `rdkitRepresentation` extension). CommonChem leaves out every value equal to its `defaults`
 * block; this module fills them in, so the graph code elsewhere works on plain numbers:
 * Kekulé bond orders, the aromatic atoms and bonds RDKit perceived, and its SSSR rings.
 */
import type { Mol } from './rdkit.ts';

export interface JsonAtom {
  z: number;
  /** Implicit hydrogens. */
  impHs: number;
  chg: number;
  nRad: number;
  /** Mass number; 0 when unlabelled. */
  isotope: number;
  /** 'cw' | 'ccw' for a configured centre, 'unspecified' otherwise. */
  stereo: string;
}

export interface JsonBond {
  a: number;
  b: number;
  /** Kekulé bond order; 0 for a zero-order (dative-free) bond. */
  order: number;
  /** 'cis' | 'trans' for a configured double bond, 'either' or 'unspecified' otherwise. */
  stereo: string;
  /** The reference neighbours a 'cis'/'trans' label refers to. */
  stereoAtoms?: [number, number];
}

export interface MolJson {
  atoms: JsonAtom[];
  bonds: JsonBond[];
  aromaticAtoms: Set<number>;
  aromaticBonds: Set<number>;
  /** SSSR rings as RDKit perceives them (atom indices in ring order). */
  rings: number[][];
}

interface RawAtom { z?: number; impHs?: number; chg?: number; nRad?: number; isotope?: number; stereo?: string }
interface RawBond { atoms: [number, number]; bo?: number; stereo?: string; stereoAtoms?: [number, number] }
interface RawDoc {
  defaults?: { atom?: RawAtom; bond?: Omit<RawBond, 'atoms'> };
  molecules: {
    atoms: RawAtom[];
    bonds?: RawBond[];
    extensions?: { name: string; aromaticAtoms?: number[]; aromaticBonds?: number[]; atomRings?: number[][] }[];
  }[];
}

export function parseMolJson(json: string): MolJson {
  const doc = JSON.parse(json) as RawDoc;
  const da = doc.defaults?.atom ?? {};
  const db = doc.defaults?.bond ?? {};
  const m = doc.molecules[0];
  const ext = m.extensions?.find((e) => e.name === 'rdkitRepresentation');
  return {
    atoms: m.atoms.map((a) => ({
      z: a.z ?? da.z ?? 6,
      impHs: a.impHs ?? da.impHs ?? 0,
      chg: a.chg ?? da.chg ?? 0,
      nRad: a.nRad ?? da.nRad ?? 0,
      isotope: a.isotope ?? da.isotope ?? 0,
      stereo: a.stereo ?? da.stereo ?? 'unspecified',
    })),
    bonds: (m.bonds ?? []).map((b) => ({
      a: b.atoms[0],
      b: b.atoms[1],
      order: b.bo ?? db.bo ?? 1,
      stereo: b.stereo ?? db.stereo ?? 'unspecified',
      ...(b.stereoAtoms ? { stereoAtoms: b.stereoAtoms } : {}),
    })),
    aromaticAtoms: new Set(ext?.aromaticAtoms ?? []),
    aromaticBonds: new Set(ext?.aromaticBonds ?? []),
    rings: ext?.atomRings ?? [],
  };
}

export function readMolJson(mol: Mol): MolJson {
  return parseMolJson(mol.get_json());
}

/** For each atom, its neighbours and the index of the bond that joins them. */
export function adjacency(m: MolJson): { atom: number; bond: number }[][] {
  const nbrs: { atom: number; bond: number }[][] = m.atoms.map(() => []);
  m.bonds.forEach((b, i) => {
    nbrs[b.a].push({ atom: b.b, bond: i });
    nbrs[b.b].push({ atom: b.a, bond: i });
  });
  return nbrs;
}

export const isChiralTag = (stereo: string) => stereo === 'cw' || stereo === 'ccw';
export const isConfiguredBond = (stereo: string) => stereo === 'cis' || stereo === 'trans';

/**
 * The twelve RDKit descriptors the COCONUT set and QED read, computed in JavaScript from the
 * molecule JSON instead of MinimalLib's `get_descriptors()`. That call computes every RDKit
 * property (about forty: the chi and kappa path indices take most of its 1.6 ms on a natural
 * product), and it was half of the descriptor task. Definitions follow RDKit's code
 * (Code/GraphMol/Descriptors: Lipinski.cpp, MolSurf.cpp, Crippen.cpp, MolDescriptors.cpp) on
 * RDKit's own perception, read from the JSON; test/chem/rdkit-props.test.ts checks every value
 * against `get_descriptors()` on the LOTUS molecules.
 *
 * Molecules outside the domain checked there (explicit hydrogen atoms, dummy atoms, radicals,
 * bonds other than single/double/triple/aromatic) get `undefined`, and the caller asks MinimalLib.
 */
import { readFileSync } from 'node:fs';
import type { MolJson } from '../core/commonchem.ts';
import { withMol, type Mol, type RDKit } from '../core/rdkit.ts';
import { elementSymbol } from '../core/formula.ts';
import { inMatchDomain, matchGraph, AROMATIC_BOND, type MatchGraph } from '../core/match-graph.ts';
import { compileSmarts, countUniqueMatches, matchesAt, type Query } from '../core/smarts-match.ts';

/** The keys of MinimalLib's `get_descriptors()` computed here, with its names. */
export interface RDKitProps {
  exactmw: number;
  amw: number;
  NumRotatableBonds: number;
  NumHBD: number;
  NumHBA: number;
  NumHeavyAtoms: number;
  NumAtoms: number;
  FractionCSP3: number;
  NumAromaticRings: number;
  NumRings: number;
  tpsa: number;
  CrippenClogP: number;
  /** Nitrogens and oxygens; the hydrogens on them. */
  lipinskiHBA: number;
  lipinskiHBD: number;
}

/**
 * RDKit's NumHBA, descriptor version 2.0.2 (the definition MinimalLib implements): aromatic
 * nitrogens only count with two connections. RDKit 2022.09 (2.0.1) also counted n with three.
 */
export const HBA_SMARTS =
  '[$([O,S;H1;v2]-[!$(*=[O,N,P,S])]),$([O,S;H0;v2]),$([O,S;-]),$([N;v3;!$(N-*=!@[O,N,P,S])]),$([nH0X2,o,s;+0])]';

/** RDKit's NumHBD, descriptor version 2.0.1. */
const HBD_SMARTS = '[N&!H0&v3,N&!H0&+1&v4,O&H1&+0,S&H1&+0,n&H1&+0]';
/** RDKit's default ("Strict") rotatable bond definition. */
const ROTATABLE_SMARTS =
  '[!$(*#*)&!D1&!$(C(F)(F)F)&!$(C(Cl)(Cl)Cl)&!$(C(Br)(Br)Br)&!$(C([CH3])([CH3])[CH3])&!$([CD3](=[N,O,S])-!@[#7,O,S!D1])' +
  '&!$([#7,O,S!D1]-!@[CD3]=[N,O,S])&!$([CD3](=[N+])-!@[#7!D1])&!$([#7!D1]-!@[CD3]=[N+])]-!@[!$(*#*)&!D1&!$(C(F)(F)F)' +
  '&!$(C(Cl)(Cl)Cl)&!$(C(Br)(Br)Br)&!$(C([CH3])([CH3])[CH3])]';

interface CrippenType { query: Query; logp: number }
let crippen: CrippenType[] | undefined;
function crippenTypes(): CrippenType[] {
  crippen ??= (JSON.parse(readFileSync(new URL('../data/crippen.json', import.meta.url), 'utf8')) as {
    types: [string, string, number, number][];
  }).types.map(([, smarts, logp]) => ({ query: compileSmarts(smarts), logp }));
  return crippen;
}

/** Average and monoisotopic masses by atomic number and mass number, from MinimalLib itself. */
const masses = new Map<number, { amw: number; exactmw: number }>();
function mass(rdkit: RDKit, z: number, isotope: number): { amw: number; exactmw: number } {
  const key = z * 1000 + isotope;
  let m = masses.get(key);
  if (!m) {
    const smiles = `[${isotope || ''}${elementSymbol(z)}]`;
    m = withMol(rdkit, smiles, (mol) => JSON.parse(mol.get_descriptors()) as { amw: number; exactmw: number });
    if (masses.size < 512) masses.set(key, m);
  }
  return m;
}

/** RDKit's exact masses count the electrons: a charge of +1 takes one electron's mass off. */
let electron: number | undefined;
function electronMass(rdkit: RDKit): number {
  electron ??= mass(rdkit, 6, 0).exactmw - withMol(rdkit, '[C+]', (mol) => JSON.parse(mol.get_descriptors()).exactmw as number);
  return electron;
}

/** Crippen logP: each atom (hydrogens as RDKit's addHs adds them) takes its first matching type. */
function crippenLogP(m: MolJson): number {
  const g = matchGraph(m, true);
  const types = crippenTypes();
  const typeOf = (i: number) => {
    for (const t of types) if (matchesAt(t.query, g, i)) return t.logp;
    return 0;
  };
  let logp = 0;
  for (let i = 0; i < g.heavy; i++) logp += typeOf(i);
  // Hydrogens follow their parents in atom order; those of one parent share a type.
  for (let i = g.heavy; i < g.n; ) {
    const v = typeOf(i);
    const parent = g.nbrs[i][0];
    for (; i < g.n && g.nbrs[i][0] === parent; i++) logp += v;
  }
  return logp;
}

/** RDKit's TPSA (Ertl et al. 2000), nitrogen and oxygen contributions only (its default). */
function tpsa(g: MatchGraph, in3Ring: (i: number) => boolean): number {
  let total = 0;
  for (let i = 0; i < g.n; i++) {
    const z = g.z[i];
    if (z !== 7 && z !== 8) continue;
    let sing = 0, doub = 0, trip = 0, arom = 0;
    for (const b of g.nbrBonds[i]) {
      const t = g.bondType[b];
      if (t === AROMATIC_BOND) arom++;
      else if (t === 1) sing++;
      else if (t === 2) doub++;
      else if (t === 3) trip++;
    }
    const nbrs = g.degree[i], h = g.hs[i], chg = g.charge[i];
    total += z === 7 ? nitrogenPsa(nbrs, h, chg, sing, doub, trip, arom, in3Ring(i))
      : oxygenPsa(nbrs, h, chg, sing, doub, arom, in3Ring(i));
  }
  return total;
}

// Contributions of Ertl, Rohde and Selzer, J. Med. Chem. 43, 3714-3717 (2000), Table 1, with RDKit's
// fallback for unlisted types (MolSurf.cpp).
function nitrogenPsa(n: number, h: number, chg: number, s: number, d: number, t: number, a: number, r3: boolean): number {
  let v = -1;
  if (n === 1) {
    if (h === 0 && chg === 0 && t === 1) v = 23.79;
    else if (h === 1 && chg === 0 && d === 1) v = 23.85;
    else if (h === 2 && chg === 0 && s === 1) v = 26.02;
    else if (h === 2 && chg === 1 && d === 1) v = 25.59;
    else if (h === 3 && chg === 1 && s === 1) v = 27.64;
  } else if (n === 2) {
    if (h === 0 && chg === 0 && s === 1 && d === 1) v = 12.36;
    else if (h === 0 && chg === 0 && t === 1 && d === 1) v = 13.6;
    else if (h === 1 && chg === 0 && s === 2) v = r3 ? 21.94 : 12.03;
    else if (h === 0 && chg === 1 && t === 1 && s === 1) v = 4.36;
    else if (h === 1 && chg === 1 && d === 1 && s === 1) v = 13.97;
    else if (h === 2 && chg === 1 && s === 2) v = 16.61;
    else if (h === 0 && chg === 0 && a === 2) v = 12.89;
    else if (h === 1 && chg === 0 && a === 2) v = 15.79;
    else if (h === 1 && chg === 1 && a === 2) v = 14.14;
  } else if (n === 3) {
    if (h === 0 && chg === 0 && s === 3) v = r3 ? 3.01 : 3.24;
    else if (h === 0 && chg === 0 && s === 1 && d === 2) v = 11.68;
    else if (h === 0 && chg === 1 && s === 2 && d === 1) v = 3.01;
    else if (h === 1 && chg === 1 && s === 3) v = 4.44;
    else if (h === 0 && chg === 0 && a === 3) v = 4.41;
    else if (h === 0 && chg === 0 && s === 1 && a === 2) v = 4.93;
    else if (h === 0 && chg === 0 && d === 1 && a === 2) v = 8.39;
    else if (h === 0 && chg === 1 && a === 3) v = 4.1;
    else if (h === 0 && chg === 1 && s === 1 && a === 2) v = 3.88;
  } else if (n === 4) {
    if (h === 0 && s === 4 && chg === 1) v = 0;
  }
  return v >= 0 ? v : Math.max(0, 30.5 - n * 8.2 + h * 1.5);
}

function oxygenPsa(n: number, h: number, chg: number, s: number, d: number, a: number, r3: boolean): number {
  let v = -1;
  if (n === 1) {
    if (h === 0 && chg === 0 && d === 1) v = 17.07;
    else if (h === 1 && chg === 0 && s === 1) v = 20.23;
    else if (h === 0 && chg === -1 && s === 1) v = 23.06;
  } else if (n === 2) {
    if (h === 0 && chg === 0 && s === 2) v = r3 ? 12.53 : 9.23;
    else if (h === 0 && chg === 0 && a === 2) v = 13.14;
  }
  return v >= 0 ? v : Math.max(0, 28.5 - n * 8.6 + h * 1.5);
}

/**
 * The properties, or undefined when the molecule is outside the checked domain: then the caller
 * reads `get_descriptors()`, whose keys these are.
 */
export function rdkitProps(rdkit: RDKit, m: MolJson, graph?: MatchGraph): RDKitProps | undefined {
  if (!inMatchDomain(m)) return undefined;
  const g = graph ?? matchGraph(m);
  let amw = 0, exactmw = 0, hs = 0, carbons = 0, sp3 = 0, no = 0, noH = 0;
  const h = mass(rdkit, 1, 0);
  const e = electronMass(rdkit);
  for (let i = 0; i < g.n; i++) {
    const a = mass(rdkit, g.z[i], g.isotope[i]);
    amw += a.amw;
    amw += g.hs[i] * h.amw;
    exactmw += a.exactmw;
    exactmw += g.hs[i] * h.exactmw;
    exactmw -= g.charge[i] * e;
    hs += g.hs[i];
    if (g.z[i] === 7 || g.z[i] === 8) {
      no++;
      noH += g.hs[i];
    }
    if (g.z[i] === 6) {
      carbons++;
      if (g.degree[i] + g.implicitHs[i] === 4) sp3++;
    }
  }
  const inRing3 = new Uint8Array(g.n);
  for (const ring of m.rings) if (ring.length === 3) for (const a of ring) inRing3[a] = 1;
  return {
    exactmw,
    amw,
    NumRotatableBonds: countUniqueMatches(compileSmarts(ROTATABLE_SMARTS), g),
    NumHBD: countUniqueMatches(compileSmarts(HBD_SMARTS), g),
    NumHBA: countUniqueMatches(compileSmarts(HBA_SMARTS), g),
    NumHeavyAtoms: g.n,
    NumAtoms: g.n + hs,
    FractionCSP3: carbons === 0 ? 0 : sp3 / carbons,
    NumAromaticRings: g.ringBondLists.filter((r) => r.every((b) => g.bondType[b] === AROMATIC_BOND)).length,
    NumRings: m.rings.length,
    tpsa: tpsa(g, (i) => inRing3[i] === 1),
    CrippenClogP: crippenLogP(m),
    lipinskiHBA: no,
    lipinskiHBD: noH,
  };
}

/**
 * The descriptors of a molecule: computed here, or MinimalLib's `get_descriptors()` for a molecule
 * outside the domain (its keys checked, so a build that renamed one fails loudly instead of
 * filling results with NaN).
 */
export function rdkitDescriptors(rdkit: RDKit, mol: Mol, json: MolJson, graph?: MatchGraph): RDKitProps {
  const fast = rdkitProps(rdkit, json, graph);
  if (fast) return fast;
  const d = JSON.parse(mol.get_descriptors()) as Partial<RDKitProps>;
  for (const key of ['exactmw', 'amw', 'NumHBA', 'NumHBD', 'CrippenClogP', 'tpsa', 'NumAtoms'] as const) {
    if (typeof d[key] !== 'number') throw new Error(`RDKit descriptors lack "${key}"`);
  }
  return d as RDKitProps;
}

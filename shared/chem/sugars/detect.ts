/**
 * Sugar candidate detection after the SRU rules (Schaub et al. 2020). Works on the atoms still
 * `present` in a molecule, because the SRU re-detects candidates after every removal round.
 *
 * Circular: a ring that is its own ring system (not fused; not spiro unless allowed) of 5-7
 * atoms, one oxygen and otherwise carbons, all ring bonds single, all exocyclic bonds single
 * (a keto C=O allowed when asked), optionally an O-glycosidic oxygen and enough exocyclic
 * oxygens. Linear: the union of all linear-sugar pattern matches, split at ester, ether and
 * peroxide bonds, stripped of circular-sugar and (unless allowed) ring atoms, kept when its
 * carbon count lies in the size window.
 */
import {
  bondBetween, components, cyclicBondsOf, isolatedRings, other, type MolGraph,
} from './graph.ts';
import type { SugarOptions } from './options.ts';

export interface PatternMatch { atoms: number[]; bonds: number[] }

export interface SugarMolecule {
  g: MolGraph;
  /** Mass of each atom with its implicit hydrogens (molecular-weight preservation mode). */
  weights: number[];
  /** Matches of the linear sugar patterns on the whole molecule. */
  linear: PatternMatch[];
  /** Matches of the acidic linear sugar patterns (used only when asked). */
  acidic: PatternMatch[];
}

export interface Candidate { kind: 'circular' | 'linear'; atoms: number[]; /** kept on removal */ spiroAtoms: number[] }

/** The molecule graph restricted to `present` atoms (indices unchanged). */
export function restrict(g: MolGraph, present: Set<number>): MolGraph {
  const keep = (bi: number) => present.has(g.bonds[bi].a) && present.has(g.bonds[bi].b);
  const incident = g.incident.map((inc, a) => (present.has(a) ? inc.filter(keep) : []));
  const rings = g.rings.filter((r) => r.every((a) => present.has(a)));
  return { atoms: g.atoms, bonds: g.bonds, incident, rings, cyclic: new Set(rings.flat()) };
}

const isAliphatic = (g: MolGraph, a: number, z: number) => g.atoms[a].z === z && !g.atoms[a].aromatic;
const isSingle = (g: MolGraph, bi: number) => g.bonds[bi].order === 1 && !g.bonds[bi].aromatic;

/** Rings that look like sugar rings, before the glycosidic-bond and oxygen tests. */
export function potentialSugarRings(g: MolGraph, opts: SugarOptions): { atoms: number[]; spiroAtoms: number[] }[] {
  return isolatedRings(g).filter((ring) => {
    if (ring.spiroAtoms.length > 0 && !opts.spiroSugars) return false;
    const n = ring.atoms.length;
    if (n < 5 || n > 7) return false;
    const oxygens = ring.atoms.filter((a) => g.atoms[a].z === 8).length;
    if (oxygens !== 1 || ring.atoms.some((a) => g.atoms[a].z !== 8 && g.atoms[a].z !== 6)) return false;
    const inRing = new Set(ring.atoms);
    for (let i = 0; i < n; i++) {
      const bi = bondBetween(g, ring.atoms[i], ring.atoms[(i + 1) % n]);
      if (bi < 0 || !isSingle(g, bi)) return false;
    }
    for (const a of ring.atoms) {
      for (const bi of g.incident[a]) {
        const n2 = other(g.bonds[bi], a);
        if (inRing.has(n2) || isSingle(g, bi)) continue;
        // A keto group (exocyclic C=O on a ring carbon) is the only tolerated non-single bond.
        const keto = opts.ketoSugars && g.bonds[bi].order === 2 && g.atoms[a].z === 6 && g.atoms[n2].z === 8;
        if (!keto) return false;
      }
    }
    return true;
  });
}

function exocyclicOxygens(g: MolGraph, ring: number[]): number[] {
  const inRing = new Set(ring);
  const out: number[] = [];
  for (const a of ring) for (const bi of g.incident[a]) {
    const n = other(g.bonds[bi], a);
    if (!inRing.has(n) && g.atoms[n].z === 8) out.push(n);
  }
  return out;
}

/** An exocyclic oxygen with exactly two single bonds, neither to hydrogen (ethers, esters, glycosides). */
function hasGlycosidicBond(g: MolGraph, ring: number[]): boolean {
  return exocyclicOxygens(g, ring).some((o) => {
    const inc = g.incident[o];
    return inc.length === 2 && inc.every((bi) => isSingle(g, bi) && g.atoms[other(g.bonds[bi], o)].z !== 1);
  });
}

export function circularCandidates(
  m: SugarMolecule, present: Set<number>, opts: SugarOptions,
  isEmptyWithout: (atoms: number[]) => boolean,
): Candidate[] {
  const g = restrict(m.g, present);
  const rings = potentialSugarRings(g, opts);
  return rings
    .filter((ring) => {
      // A lone sugar ring has nothing to be glycosidically bound to, so it is exempt.
      if (opts.glycosidicBond && !hasGlycosidicBond(g, ring.atoms)
        && !(rings.length === 1 && isEmptyWithout(ring.atoms))) return false;
      if (opts.oxygenAtoms && exocyclicOxygens(g, ring.atoms).length / ring.atoms.length < opts.oxygenAtomsThreshold) return false;
      return true;
    })
    .map((ring) => ({ kind: 'circular' as const, atoms: ring.atoms, spiroAtoms: ring.spiroAtoms }));
}

interface Piece { atoms: Set<number>; bonds: Set<number> }

/** Split a piece into its connected parts along its own bonds. */
function split(g: MolGraph, p: Piece): Piece[] {
  return components(g, p.atoms, (bi) => p.bonds.has(bi)).map((atoms) => {
    const s = new Set(atoms);
    return { atoms: s, bonds: new Set([...p.bonds].filter((bi) => s.has(g.bonds[bi].a) && s.has(g.bonds[bi].b))) };
  });
}

/** The SRU cuts linear candidates at ester, then ether, then peroxide bonds between sugar units. */
function cutConnectingBonds(g: MolGraph, p: Piece): Piece[] {
  const bonds = new Set(p.bonds);
  // Ring membership inside the candidate is judged once, before any cut (as the SRU does).
  const ringAtoms = new Set<number>();
  for (const bi of cyclicBondsOf(g, p.bonds)) { ringAtoms.add(g.bonds[bi].a); ringAtoms.add(g.bonds[bi].b); }
  const nbrs = (a: number, pred: (bi: number, n: number) => boolean) =>
    g.incident[a].filter((bi) => bonds.has(bi) && pred(bi, other(g.bonds[bi], a)));
  const chainO = (o: number) => isAliphatic(g, o, 8) && p.atoms.has(o) && !ringAtoms.has(o);
  const cuts: number[] = [];
  for (const c of p.atoms) {
    if (!isAliphatic(g, c, 6)) continue;
    if (nbrs(c, (bi, n) => g.bonds[bi].order === 2 && isAliphatic(g, n, 8)).length === 0) continue;
    for (const bi of nbrs(c, (b, n) => isSingle(g, b) && chainO(n))) {
      const o = other(g.bonds[bi], c);
      if (nbrs(o, (b2, n2) => n2 !== c && isSingle(g, b2) && isAliphatic(g, n2, 6)).length > 0) cuts.push(bi);
    }
  }
  cuts.forEach((bi) => bonds.delete(bi));
  for (const o of p.atoms) {
    if (!chainO(o)) continue;
    const cs = nbrs(o, (bi, n) => isSingle(g, bi) && isAliphatic(g, n, 6)).sort((x, y) => other(g.bonds[x], o) - other(g.bonds[y], o));
    // One bond of each C-O-C pair is cut; which one the SRU cuts is unspecified, we cut the later atom's.
    if (cs.length >= 2) cs.slice(1).forEach((bi) => bonds.delete(bi));
  }
  for (const bi of [...bonds]) {
    const { a, b } = g.bonds[bi];
    if (!isSingle(g, bi) || !chainO(a) || !chainO(b)) continue;
    const hasC = (o: number, n0: number) => nbrs(o, (b2, n) => n !== n0 && isSingle(g, b2) && isAliphatic(g, n, 6)).length > 0;
    if (hasC(a, b) && hasC(b, a)) bonds.delete(bi);
  }
  return split(g, { atoms: p.atoms, bonds });
}

export function linearCandidates(m: SugarMolecule, present: Set<number>, opts: SugarOptions): Candidate[] {
  const g = restrict(m.g, present);
  const matches = (opts.linearAcidicSugars ? [...m.linear, ...m.acidic] : m.linear)
    .filter((mt) => mt.atoms.every((a) => present.has(a)));
  if (matches.length === 0) return [];
  const union: Piece = { atoms: new Set(matches.flatMap((mt) => mt.atoms)), bonds: new Set(matches.flatMap((mt) => mt.bonds)) };
  let pieces = split(g, union).flatMap((p) => cutConnectingBonds(g, p));
  const drop = (atoms: Set<number>) => {
    pieces = pieces.flatMap((p) => split(g, { atoms: new Set([...p.atoms].filter((a) => !atoms.has(a))), bonds: p.bonds }))
      .filter((p) => p.atoms.size > 0);
  };
  // Atoms of (potential) circular sugars belong to those, not to linear candidates.
  drop(new Set(potentialSugarRings(g, opts).flatMap((r) => r.atoms)));
  if (!opts.linearSugarsInRings) drop(g.cyclic);
  return pieces
    .filter((p) => {
      const carbons = [...p.atoms].filter((a) => g.atoms[a].z === 6).length;
      return carbons >= opts.linearMinSize && carbons <= opts.linearMaxSize;
    })
    .map((p) => ({ kind: 'linear' as const, atoms: [...p.atoms].sort((x, y) => x - y), spiroAtoms: [] }));
}

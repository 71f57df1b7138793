/**
 * The structural facts the classification rules test, computed on demand for one scope (the
 * whole molecule or its aglycone) and cached: element counts, ring statistics, the carbon
 * skeleton, and counts of SMARTS matches.
 *
 * The carbon skeleton is the largest set of carbon atoms connected through C-C bonds. Ester,
 * ether and amide links break it, so acyl groups, O-methyls and sugars fall away and what is
 * left is, for a terpenoid, the isoprenoid skeleton (C10, C15, C20 ...), for a flavonoid the
 * C6-C3-C6 unit, for a fatty acid its chain. It is the transparent stand-in for the biosynthetic
 * building-block counting that the textbook definitions use.
 */
import { matches, query } from '../core/smarts.ts';
import type { Mol, RDKit } from '../core/rdkit.ts';
import type { MolView } from '../core/mol-view.ts';
import type { MolGraph } from '../sugars/graph.ts';
import type { PatternDef, PropName } from './types.ts';

const HALOGENS = new Set([9, 17, 35, 53]);

export interface SugarFacts {
  /** Circular sugar rings removed to obtain the aglycone. */
  sugarRings: number;
  /** The molecule is made of sugars only (nothing was left after removal). */
  sugarOnly: boolean;
  /** Heavy atoms of the aglycone (0 when sugarOnly). */
  aglyconeHeavy: number;
}

export class ScopeFeatures {
  private readonly props = new Map<PropName, number>();
  private readonly counts = new Map<string, number>();

  constructor(
    private readonly rdkit: RDKit,
    readonly mol: Mol,
    readonly g: MolGraph,
    private readonly patterns: Record<string, PatternDef>,
    private readonly sugar: SugarFacts,
    /** The molecule's view, when the caller has one: RDKit is not asked for a pattern its SMARTS screen rules out. */
    private readonly view?: MolView,
  ) {}

  /** Unique matches of a named pattern (capped by RDKit at 1000). */
  count(pattern: string): number {
    let n = this.counts.get(pattern);
    if (n === undefined) {
      const def = this.patterns[pattern];
      const q = def ? query(this.rdkit, def.smarts) : undefined;
      if (!q) throw new Error(`classification pattern ${pattern} does not parse`);
      n = this.view && !this.view.mayMatch(def!.smarts) ? 0 : matches(this.mol, q).length;
      this.counts.set(pattern, n);
    }
    return n;
  }

  prop(name: PropName): number {
    let v = this.props.get(name);
    if (v === undefined) {
      v = this.compute(name);
      this.props.set(name, v);
    }
    return v;
  }

  private compute(name: PropName): number {
    const { atoms, rings } = this.g;
    const z = (n: number) => atoms.filter((a) => a.z === n).length;
    switch (name) {
      case 'C': return z(6);
      case 'N': return z(7);
      case 'O': return z(8);
      case 'S': return z(16);
      case 'P': return z(15);
      case 'halogen': return atoms.filter((a) => HALOGENS.has(a.z)).length;
      case 'heavy': return atoms.filter((a) => a.z > 1).length;
      case 'charged_atoms': return atoms.filter((a) => a.charge !== 0).length;
      case 'rings': return rings.length;
      case 'aromatic_rings': return rings.filter((r) => r.every((i) => atoms[i].aromatic)).length;
      case 'benzene_rings':
        return rings.filter((r) => r.length === 6 && r.every((i) => atoms[i].aromatic && atoms[i].z === 6)).length;
      case 'hetero_rings': return rings.filter((r) => r.some((i) => atoms[i].z !== 6)).length;
      case 'largest_ring': return rings.reduce((m, r) => Math.max(m, r.length), 0);
      case 'ring_systems': return ringSystems(rings);
      case 'skeleton_C': return carbonSkeleton(this.g).length;
      case 'skeleton_aromatic': return carbonSkeleton(this.g).filter((i) => atoms[i].aromatic).length;
      case 'skeleton_branches': return branchPoints(this.g, carbonSkeleton(this.g));
      case 'chain_C': return longestAcyclicCarbonChain(this.g);
      case 'sugar_rings': return this.sugar.sugarRings;
      case 'sugar_only': return this.sugar.sugarOnly ? 1 : 0;
      case 'aglycone_heavy': return this.sugar.aglyconeHeavy;
    }
  }
}

/** Carbon neighbours of each carbon atom. */
function carbonNeighbours(g: MolGraph): number[][] {
  return g.atoms.map((a, i) => (a.z !== 6 ? [] : g.incident[i]
    .map((b) => (g.bonds[b].a === i ? g.bonds[b].b : g.bonds[b].a))
    .filter((j) => g.atoms[j].z === 6)));
}

const skeletons = new WeakMap<MolGraph, number[]>();

/** The largest connected set of carbon atoms (C-C bonds only). */
export function carbonSkeleton(g: MolGraph): number[] {
  const cached = skeletons.get(g);
  if (cached) return cached;
  const nb = carbonNeighbours(g);
  const seen = new Set<number>();
  let best: number[] = [];
  g.atoms.forEach((a, start) => {
    if (a.z !== 6 || seen.has(start)) return;
    const comp: number[] = [];
    const stack = [start];
    seen.add(start);
    while (stack.length) {
      const i = stack.pop()!;
      comp.push(i);
      for (const j of nb[i]) if (!seen.has(j)) { seen.add(j); stack.push(j); }
    }
    if (comp.length > best.length) best = comp;
  });
  skeletons.set(g, best);
  return best;
}

function branchPoints(g: MolGraph, skeleton: number[]): number {
  const inSkeleton = new Set(skeleton);
  const nb = carbonNeighbours(g);
  return skeleton.filter((i) => nb[i].filter((j) => inSkeleton.has(j)).length >= 3).length;
}

/** Rings sharing at least one atom belong to the same system. */
function ringSystems(rings: number[][]): number {
  const parent = rings.map((_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i])));
  const owner = new Map<number, number>();
  rings.forEach((r, i) => {
    for (const a of r) {
      const o = owner.get(a);
      if (o === undefined) owner.set(a, i);
      else parent[find(i)] = find(o);
    }
  });
  return new Set(rings.map((_, i) => find(i))).size;
}

/**
 * Atoms on the longest path through acyclic carbons. Acyclic atoms form a forest, so the longest
 * path of each tree is found by two breadth-first searches (farthest atom, then farthest from it).
 */
function longestAcyclicCarbonChain(g: MolGraph): number {
  const nb = carbonNeighbours(g).map((l, i) => (g.cyclic.has(i) ? [] : l.filter((j) => !g.cyclic.has(j))));
  const isChain = (i: number) => g.atoms[i].z === 6 && !g.cyclic.has(i);
  const farthest = (start: number): [number, number, Set<number>] => {
    const dist = new Map<number, number>([[start, 1]]);
    const queue = [start];
    let last = start;
    while (queue.length) {
      const i = queue.shift()!;
      last = i;
      for (const j of nb[i]) if (!dist.has(j)) { dist.set(j, dist.get(i)! + 1); queue.push(j); }
    }
    return [last, dist.get(last)!, new Set(dist.keys())];
  };
  const done = new Set<number>();
  let best = 0;
  g.atoms.forEach((_, i) => {
    if (!isChain(i) || done.has(i)) return;
    const [end, , tree] = farthest(i);
    tree.forEach((j) => done.add(j));
    best = Math.max(best, farthest(end)[1]);
  });
  return best;
}

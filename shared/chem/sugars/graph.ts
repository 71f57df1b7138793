/**
 * The molecule graph the Sugar Removal Utility works on, read from RDKit's commonchem JSON
 * (`get_json()`: Kekulé bond orders, aromatic flags and SSSR rings in the rdkitRepresentation
 * extension), plus the few graph routines the SRU rules need: connected components of an atom
 * subset, bridges of a sub-graph (ring membership inside a candidate) and ring-system classes.
 */
import type { Mol } from '../core/rdkit.ts';
import { readMolJson, type MolJson } from '../core/commonchem.ts';

export interface Atom { z: number; impHs: number; charge: number; aromatic: boolean }
export interface Bond { a: number; b: number; order: number; aromatic: boolean }

export interface MolGraph {
  atoms: Atom[];
  bonds: Bond[];
  /** For each atom, its incident bond indices. */
  incident: number[][];
  /** SSSR rings (atom index lists) as RDKit perceives them. */
  rings: number[][];
  /** Atoms that are part of any ring. */
  cyclic: Set<number>;
}

/** `m`: the parsed `get_json()` when the caller already holds it (MolView.json). */
export function readGraph(mol: Mol, m: MolJson = readMolJson(mol)): MolGraph {
  const atoms: Atom[] = m.atoms.map((a, i) => ({ z: a.z, impHs: a.impHs, charge: a.chg, aromatic: m.aromaticAtoms.has(i) }));
  const bonds: Bond[] = m.bonds.map((b, i) => ({ a: b.a, b: b.b, order: b.order, aromatic: m.aromaticBonds.has(i) }));
  const incident: number[][] = atoms.map(() => []);
  bonds.forEach((b, i) => {
    incident[b.a].push(i);
    incident[b.b].push(i);
  });
  return { atoms, bonds, incident, rings: m.rings, cyclic: new Set(m.rings.flat()) };
}

export function other(bond: Bond, atom: number): number {
  return bond.a === atom ? bond.b : bond.a;
}

/**
 * Connected components of `atomSet`, walking only the bonds accepted by `useBond`
 * (default: every bond of the molecule between two atoms of the set).
 */
export function components(g: MolGraph, atomSet: Iterable<number>, useBond?: (bond: number) => boolean): number[][] {
  const inSet = new Set(atomSet);
  const seen = new Set<number>();
  const out: number[][] = [];
  for (const start of [...inSet].sort((x, y) => x - y)) {
    if (seen.has(start)) continue;
    const comp: number[] = [];
    const stack = [start];
    seen.add(start);
    while (stack.length) {
      const a = stack.pop()!;
      comp.push(a);
      for (const bi of g.incident[a]) {
        if (useBond && !useBond(bi)) continue;
        const n = other(g.bonds[bi], a);
        if (inSet.has(n) && !seen.has(n)) {
          seen.add(n);
          stack.push(n);
        }
      }
    }
    out.push(comp.sort((x, y) => x - y));
  }
  return out;
}

/** Bonds (of the sub-graph given by `bondSet`) that lie on a cycle of that sub-graph. */
export function cyclicBondsOf(g: MolGraph, bondSet: Set<number>): Set<number> {
  // A bond is cyclic iff it is not a bridge; bridges found with the classic low-link DFS.
  const disc = new Map<number, number>();
  const low = new Map<number, number>();
  const bridges = new Set<number>();
  let time = 0;
  const atomsOf = new Set<number>();
  for (const bi of bondSet) { atomsOf.add(g.bonds[bi].a); atomsOf.add(g.bonds[bi].b); }
  for (const root of atomsOf) {
    if (disc.has(root)) continue;
    // Iterative DFS: frames of (atom, bond used to enter, next incident position).
    const stack: { v: number; via: number; i: number }[] = [{ v: root, via: -1, i: 0 }];
    disc.set(root, time); low.set(root, time); time++;
    while (stack.length) {
      const f = stack[stack.length - 1];
      const inc = g.incident[f.v];
      if (f.i < inc.length) {
        const bi = inc[f.i++];
        if (bi === f.via || !bondSet.has(bi)) continue;
        const n = other(g.bonds[bi], f.v);
        if (!disc.has(n)) {
          disc.set(n, time); low.set(n, time); time++;
          stack.push({ v: n, via: bi, i: 0 });
        } else {
          low.set(f.v, Math.min(low.get(f.v)!, disc.get(n)!));
        }
      } else {
        stack.pop();
        if (stack.length) {
          const p = stack[stack.length - 1];
          low.set(p.v, Math.min(low.get(p.v)!, low.get(f.v)!));
          if (low.get(f.v)! > disc.get(p.v)!) bridges.add(f.via);
        }
      }
    }
  }
  return new Set([...bondSet].filter((bi) => !bridges.has(bi)));
}

export function bondBetween(g: MolGraph, a: number, b: number): number {
  for (const bi of g.incident[a]) if (other(g.bonds[bi], a) === b) return bi;
  return -1;
}

/**
 * Rings that form a ring system on their own (share no bond with another ring: CDK's
 * "isolated ring fragments"), each flagged when it shares an atom with another ring (spiro).
 */
export function isolatedRings(g: MolGraph): { atoms: number[]; spiroAtoms: number[] }[] {
  const ringBonds = g.rings.map((r) => new Set(r.map((a, i) => bondBetween(g, a, r[(i + 1) % r.length]))));
  const out: { atoms: number[]; spiroAtoms: number[] }[] = [];
  g.rings.forEach((ring, ri) => {
    const fused = g.rings.some((_, rj) => rj !== ri && [...ringBonds[ri]].some((bi) => ringBonds[rj].has(bi)));
    if (fused) return;
    const spiroAtoms = ring.filter((a) => g.rings.some((r2, rj) => rj !== ri && r2.includes(a)));
    out.push({ atoms: [...ring], spiroAtoms });
  });
  return out;
}

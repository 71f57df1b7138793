/**
 * Post-processing of extracted sugars after CDK's SugarDetectionUtility (post_process_sugars):
 * the sugar part is split at the bonds that join sugar units. Circular sugars: esters, then
 * peroxides, then O-glycosidic bonds (ethers) from a ring carbon; linear sugars: esters,
 * cross-linking ethers, ethers, then peroxides. An ester or ether split copies the connecting
 * oxygen, so both sides keep an OH; a peroxide or cross-linking ether split does not. With
 * limitBySize a bond is only split when no fragment of the sugar part would then be too small
 * (preservation threshold for circular sugars, linear minimum size for linear ones).
 *
 * The patterns (the utility's SMARTS, written out as predicates on the sugar part):
 *   circular ester      [C;R;D3,D4;+0;$(C=!@[O;!R;+0])]-!@[O;!R;D2;+0]-!@[C;+0]
 *   circular peroxide   [C;R;D3,D4;+0]-!@[O;!R;D2;+0]-!@[O;!R;D2;+0]-!@[C;+0]
 *   circular ether      [C;R;D3,D4;+0]-!@[O;!R;D2;+0]-!@[C;+0]
 *   linear ester        [C;!R;+0;$(C=!@[O;!R;+0])]-!@[O;!R;D2;+0]-!@[C;!R;+0]
 *   linear cross-link   [C;!R;+0]-!@[O;!R;D2;+0]-!@[C;!R;+0;$(C-!@[OH1;!R;+0])]
 *   linear ether        [C;!R;+0]-!@[O;!R;D2;+0]-!@[C;!R;+0]
 *   linear peroxide     [C;!R;+0]-!@[O;!R;D2;+0]-!@[O;!R;D2;+0]-!@[C;!R;+0]
 * Degrees, rings and hydrogens are those of the sugar part (attachment atoms included).
 */
import type { MolGraph } from './graph.ts';
import type { SugarOptions } from './options.ts';

/** An atom of the sugar part: the input atom it copies (new atoms: the oxygen they duplicate), or an attachment `*`. */
export interface PartAtom { orig: number; z: number; charge: number; aromatic: boolean; hs: number; isNew: boolean }
/** A bond of the sugar part, with the input bond it copies. */
export interface PartBond { a: number; b: number; order: number; aromatic: boolean; orig: number; alive: boolean }
export interface Part { atoms: PartAtom[]; bonds: PartBond[] }

const HEAVY_MASS: Record<number, number> = { 6: 12.011, 7: 14.007, 8: 15.999, 15: 30.974, 16: 32.06 };

function incident(p: Part, a: number): number[] {
  const out: number[] = [];
  p.bonds.forEach((b, i) => { if (b.alive && (b.a === a || b.b === a)) out.push(i); });
  return out;
}
const otherEnd = (b: PartBond, a: number) => (b.a === a ? b.b : b.a);

/** Bonds on a cycle of the part (not bridges). */
function ringBonds(p: Part): Set<number> {
  const n = p.atoms.length;
  const disc = new Array<number>(n).fill(-1);
  const low = new Array<number>(n).fill(0);
  const bridges = new Set<number>();
  let time = 0;
  const visit = (u: number, viaBond: number) => {
    disc[u] = low[u] = time++;
    for (const bi of incident(p, u)) {
      if (bi === viaBond) continue;
      const v = otherEnd(p.bonds[bi], u);
      if (disc[v] < 0) {
        visit(v, bi);
        low[u] = Math.min(low[u], low[v]);
        if (low[v] > disc[u]) bridges.add(bi);
      } else low[u] = Math.min(low[u], disc[v]);
    }
  };
  for (let i = 0; i < n; i++) if (disc[i] < 0) visit(i, -1);
  return new Set(p.bonds.map((_, i) => i).filter((i) => p.bonds[i].alive && !bridges.has(i)));
}

interface View { ring: Set<number>; inRing: (a: number) => boolean; deg: (a: number) => number }

function view(p: Part): View {
  const ring = ringBonds(p);
  const ringAtoms = new Set<number>();
  for (const bi of ring) { ringAtoms.add(p.bonds[bi].a); ringAtoms.add(p.bonds[bi].b); }
  return { ring, inRing: (a) => ringAtoms.has(a), deg: (a) => incident(p, a).length };
}

const isC = (p: Part, a: number) => p.atoms[a].z === 6 && !p.atoms[a].aromatic && p.atoms[a].charge === 0;
const isO = (p: Part, a: number) => p.atoms[a].z === 8 && !p.atoms[a].aromatic && p.atoms[a].charge === 0;

/** Neighbours of `a` over single (non-aromatic) chain bonds, in bond order. */
function chainSingle(p: Part, v: View, a: number): { n: number; bond: number }[] {
  return incident(p, a)
    .filter((bi) => p.bonds[bi].order === 1 && !p.bonds[bi].aromatic && !v.ring.has(bi))
    .map((bi) => ({ n: otherEnd(p.bonds[bi], a), bond: bi }));
}

const hasChainKeto = (p: Part, v: View, c: number) =>
  incident(p, c).some((bi) => p.bonds[bi].order === 2 && !v.ring.has(bi) && isO(p, otherEnd(p.bonds[bi], c)) && !v.inRing(otherEnd(p.bonds[bi], c)));
const hasChainOH = (p: Part, v: View, c: number) =>
  chainSingle(p, v, c).some(({ n }) => isO(p, n) && !v.inRing(n) && p.atoms[n].hs === 1);

type Kind = 'ester' | 'peroxide' | 'ether' | 'crosslink';

/** Matches of one pattern as atom lists in query order, the first of each atom set kept (CDK's uniqueAtoms). */
function matchesOf(p: Part, kind: Kind, circular: boolean): number[][] {
  const v = view(p);
  const first = (c: number) => {
    if (!isC(p, c)) return false;
    if (circular) return v.inRing(c) && (v.deg(c) === 3 || v.deg(c) === 4) && (kind !== 'ester' || hasChainKeto(p, v, c));
    return !v.inRing(c) && (kind !== 'ester' || hasChainKeto(p, v, c));
  };
  const linkO = (o: number) => isO(p, o) && !v.inRing(o) && v.deg(o) === 2;
  const lastC = (c: number) => isC(p, c) && (circular || !v.inRing(c)) && (kind !== 'crosslink' || hasChainOH(p, v, c));
  const out: number[][] = [];
  const seen = new Set<string>();
  const add = (m: number[]) => {
    const key = [...m].sort((x, y) => x - y).join(',');
    if (!seen.has(key)) { seen.add(key); out.push(m); }
  };
  for (let c1 = 0; c1 < p.atoms.length; c1++) {
    if (!first(c1)) continue;
    for (const { n: o1 } of chainSingle(p, v, c1)) {
      if (!linkO(o1)) continue;
      for (const { n: x } of chainSingle(p, v, o1)) {
        if (x === c1) continue;
        if (kind === 'peroxide') {
          if (!linkO(x)) continue;
          for (const { n: c2 } of chainSingle(p, v, x)) if (c2 !== o1 && lastC(c2)) add([c1, o1, x, c2]);
        } else if (lastC(x)) add([c1, o1, x]);
      }
    }
  }
  return out;
}

export class PostProcessor {
  constructor(readonly p: Part, readonly g: MolGraph, readonly opts: SugarOptions, readonly weights: number[]) {}

  private bondBetween(a: number, b: number): number {
    return this.p.bonds.findIndex((x) => x.alive && ((x.a === a && x.b === b) || (x.a === b && x.b === a)));
  }

  private components(): number[][] {
    const p = this.p;
    const seen = new Set<number>();
    const out: number[][] = [];
    for (let s = 0; s < p.atoms.length; s++) {
      if (seen.has(s)) continue;
      const comp: number[] = [];
      const stack = [s];
      seen.add(s);
      while (stack.length) {
        const a = stack.pop()!;
        comp.push(a);
        for (const bi of incident(p, a)) {
          const n = otherEnd(p.bonds[bi], a);
          if (!seen.has(n)) { seen.add(n); stack.push(n); }
        }
      }
      out.push(comp.sort((x, y) => x - y));
    }
    return out;
  }

  private tooSmall(comp: number[], circular: boolean): boolean {
    const atoms = comp.map((a) => this.p.atoms[a]);
    if (!circular) return atoms.length < this.opts.linearMinSize;
    switch (this.opts.preservationMode) {
      case 'all': return false;
      case 'heavy-atom-count': return atoms.filter((a) => a.z !== 1).length < this.opts.preservationThreshold;
      case 'molecular-weight':
        return atoms.reduce((s, a) => s + (a.z === 0 ? 0 : (a.isNew ? HEAVY_MASS[a.z] ?? 0 : this.weights[a.orig] - this.g.atoms[a.orig].impHs * 1.008) + a.hs * 1.008), 0)
          < this.opts.preservationThreshold;
    }
  }

  /** Would removing this bond leave any fragment of the part too small? */
  private wouldBeTooSmall(bond: number, circular: boolean): boolean {
    this.p.bonds[bond].alive = false;
    try {
      return this.components().some((c) => this.tooSmall(c, circular));
    } finally {
      this.p.bonds[bond].alive = true;
    }
  }

  /** Removes a bond; each end gets a hydrogen per bond order, or an attachment `*`. */
  private cut(bond: number, mark: boolean): void {
    const b = this.p.bonds[bond];
    b.alive = false;
    for (const end of [b.a, b.b]) {
      if (!mark) { this.p.atoms[end].hs += b.order; continue; }
      this.p.atoms.push({ orig: -1, z: 0, charge: 0, aromatic: false, hs: 0, isNew: true });
      this.p.bonds.push({ a: end, b: this.p.atoms.length - 1, order: b.order, aromatic: false, orig: -1, alive: true });
    }
  }

  private split(kind: Kind, circular: boolean, mark: boolean, limit: boolean): void {
    for (const m of matchesOf(this.p, kind, circular)) {
      const [c1, o1] = m;
      const target = kind === 'peroxide' ? this.bondBetween(m[1], m[2]) : kind === 'crosslink' ? this.bondBetween(m[2], o1) : this.bondBetween(c1, o1);
      if (target < 0 || (limit && this.wouldBeTooSmall(target, circular))) continue;
      if (kind === 'ester' || kind === 'ether') {
        // The oxygen is copied onto the first carbon, so both sides keep it.
        const old = this.p.bonds[target];
        this.p.atoms.push({ ...this.p.atoms[o1], hs: 0, isNew: true });
        this.p.bonds.push({ a: c1, b: this.p.atoms.length - 1, order: 1, aromatic: false, orig: old.orig, alive: true });
        old.alive = false;
        // Both oxygens lost the other's carbon.
        this.saturate(o1, mark);
        this.saturate(this.p.atoms.length - 1, mark);
      } else this.cut(target, mark);
    }
  }

  private saturate(a: number, mark: boolean): void {
    if (!mark) { this.p.atoms[a].hs += 1; return; }
    this.p.atoms.push({ orig: -1, z: 0, charge: 0, aromatic: false, hs: 0, isNew: true });
    this.p.bonds.push({ a, b: this.p.atoms.length - 1, order: 1, aromatic: false, orig: -1, alive: true });
  }

  run(circular: boolean, linear: boolean, mark: boolean, limit: boolean): number[][] {
    if (circular) {
      this.split('ester', true, mark, limit);
      this.split('peroxide', true, mark, limit);
      this.split('ether', true, mark, limit);
    }
    if (linear) {
      this.split('ester', false, mark, limit);
      this.split('crosslink', false, mark, limit);
      this.split('ether', false, mark, limit);
      this.split('peroxide', false, mark, limit);
    }
    return this.components();
  }
}

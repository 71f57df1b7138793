/**
 * Sugar removal after the SRU rules (Schaub et al. 2020): terminal-only removal judged by the
 * preservation mode, clean-up of disconnected fragments too small to keep, and the alternation
 * of circular and linear removal rounds until nothing terminal is left.
 */
import { components, type MolGraph } from './graph.ts';
import {
  circularCandidates, linearCandidates, type Candidate, type SugarMolecule,
} from './detect.ts';
import type { SugarOptions } from './options.ts';

export type SugarKind = 'circular' | 'linear' | 'both';

function without(present: Set<number>, atoms: Iterable<number>): Set<number> {
  const s = new Set(present);
  for (const a of atoms) s.delete(a);
  return s;
}

export class SugarRemover {
  constructor(readonly m: SugarMolecule, readonly opts: SugarOptions) {}

  private get g(): MolGraph { return this.m.g; }

  tooSmall(atoms: number[]): boolean {
    if (atoms.length === 0) return true;
    switch (this.opts.preservationMode) {
      case 'all': return false;
      case 'heavy-atom-count': return atoms.filter((a) => this.g.atoms[a].z > 1).length < this.opts.preservationThreshold;
      case 'molecular-weight': return atoms.reduce((s, a) => s + this.m.weights[a], 0) < this.opts.preservationThreshold;
    }
  }

  /** Drops every disconnected fragment that is too small to keep. */
  clearSmall(present: Set<number>): Set<number> {
    if (this.opts.preservationMode === 'all') return present;
    const keep = components(this.g, present).filter((c) => !this.tooSmall(c));
    return new Set(keep.flat());
  }

  private connected(present: Set<number>): boolean {
    return components(this.g, present).length <= 1;
  }

  /** True when nothing worth keeping remains once `atoms` are gone (the lone-sugar exemption). */
  isEmptyWithout = (present: Set<number>) => (atoms: number[]): boolean =>
    this.clearSmall(without(present, atoms)).size === 0;

  circular(present: Set<number>): Candidate[] {
    return circularCandidates(this.m, present, this.opts, this.isEmptyWithout(present));
  }

  linear(present: Set<number>): Candidate[] {
    return linearCandidates(this.m, present, this.opts);
  }

  /**
   * Terminal: removing the candidate leaves one connected structure, after discarding the
   * fragments too small to keep that hold no atom of any candidate.
   */
  private isTerminal(c: Candidate, present: Set<number>, all: Candidate[]): boolean {
    const rest = without(present, c.atoms);
    if (this.connected(rest)) return true;
    if (this.opts.preservationMode === 'all') return false;
    const candidateAtoms = new Set(all.flatMap((x) => x.atoms));
    const kept = components(this.g, rest).filter((comp) => !this.tooSmall(comp) || comp.some((a) => candidateAtoms.has(a)));
    return kept.length <= 1;
  }

  private strip(present: Set<number>, c: Candidate): Set<number> {
    const spiro = new Set(c.spiroAtoms);
    return without(present, c.atoms.filter((a) => !spiro.has(a)));
  }

  /** Removes the given candidates; returns the atoms left and how many candidates went. */
  removeCandidates(present: Set<number>, candidates: Candidate[]): { present: Set<number>; removed: number } {
    let cur = present;
    let removed = 0;
    if (this.opts.onlyTerminal) {
      const left = [...candidates];
      for (let progress = true; progress && cur.size > 0;) {
        progress = false;
        for (let i = 0; i < left.length && cur.size > 0; i++) {
          const c = left[i];
          // A candidate cleared away with a small fragment is gone already.
          if (!c.atoms.every((a) => cur.has(a)) || !this.isTerminal(c, cur, left)) continue;
          cur = this.clearSmall(this.strip(cur, c));
          left.splice(i--, 1);
          removed++;
          progress = true;
        }
      }
    } else {
      for (const c of candidates) cur = this.strip(cur, c);
      removed = candidates.length;
    }
    return { present: cur.size > 0 ? this.clearSmall(cur) : cur, removed };
  }

  /** The SRU's removal routines for one kind of sugar or both. */
  remove(present: Set<number>, kind: SugarKind): Set<number> {
    if (kind === 'circular') return this.removeCandidates(present, this.circular(present)).present;
    if (kind === 'linear') return this.removeCandidates(present, this.linear(present)).present;
    let cur = present;
    // Circular and linear candidates may overlap, so they are removed in alternating rounds.
    for (;;) {
      const c = this.removeCandidates(cur, this.circular(cur));
      cur = c.present;
      if (cur.size === 0) break;
      const l = this.removeCandidates(cur, this.linear(cur));
      cur = l.present;
      if (cur.size === 0 || !this.opts.onlyTerminal || c.removed + l.removed === 0) break;
    }
    return cur;
  }
}

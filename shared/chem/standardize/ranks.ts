/**
 * Canonical atom ranks in the manner of RDKit's canonicaliser (Schneider, Sayle & Landrum,
 * J Chem Inf Model 2015, 55:2111): atoms are ordered by (degree, atomic number, isotope,
 * hydrogen count, charge), then classes are refined by their neighbours' classes and bond orders
 * until stable. The uncharger uses the order only to decide which of several anions is
 * protonated first; atoms left tied are symmetry-equivalent, so ties are broken by index.
 * MinimalLib does not expose RDKit's own ranks.
 */
import type { Molfile } from './molfile.ts';
import { atomicNumber, neighbourLists } from './molfile.ts';

function compareTuples(a: number[], b: number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i] - b[i];
  return a.length - b.length;
}

/** Classes 0..n-1 numbered by the sorted order of the keys (equal keys share a class). */
function classify(keys: number[][]): number[] {
  const order = keys.map((_, i) => i).sort((x, y) => compareTuples(keys[x], keys[y]));
  const cls = new Array<number>(keys.length);
  let current = 0;
  order.forEach((atom, pos) => {
    if (pos > 0 && compareTuples(keys[order[pos - 1]], keys[atom]) !== 0) current = pos;
    cls[atom] = current;
  });
  return cls;
}

/** Rank per atom (lower = earlier); `hs` are the hydrogen counts RDKit perceives. */
export function canonicalRanks(m: Molfile, hs: number[]): number[] {
  const nbrs = neighbourLists(m);
  let cls = classify(m.atoms.map((a, i) => [nbrs[i].length, atomicNumber(a), a.isotope, hs[i], a.charge]));
  for (let round = 0; round < m.atoms.length; round++) {
    const keys = m.atoms.map((_, i) => {
      const env = nbrs[i]
        .map((n) => [m.bonds[n.bond].order, cls[n.atom]])
        .sort((x, y) => compareTuples(y, x))
        .flat();
      return [cls[i], ...env];
    });
    const next = classify(keys);
    const stable = next.every((c, i) => c === cls[i]);
    cls = next;
    if (stable) break;
  }
  return cls;
}

/**
 * Matching the SRU's linear sugar patterns (data/sugar-patterns.json) on a molecule. The
 * patterns are SMILES read as SMARTS (aliphatic C and O, single or double bonds, any H count)
 * and nest: glycerol lies inside every alditol, glyceraldehyde inside every aldose. When a
 * pattern has no match, no pattern containing it can have one, so those calls are skipped
 * (as are the patterns the SMARTS screen rules out). The match lists are the same as matching
 * every pattern.
 */
import type { RDKit } from '../core/rdkit.ts';
import { query } from '../core/smarts.ts';
import type { MolView } from '../core/mol-view.ts';
import type { PatternMatch } from './detect.ts';

const MATCH_OPTIONS = JSON.stringify({ maxMatches: 100000, uniquify: true });

/** Only C, O, single and double bonds: a match of the query in the pattern's own molecule is an embedding of the queries. */
const PLAIN = /^[CO()=0-9]+$/;

const containedCache = new WeakMap<RDKit, WeakMap<object, Int32Array>>();

/**
 * For each pattern, the largest other pattern it contains (-1: none): pattern j lies inside
 * pattern i when query j matches the molecule written by pattern i. For these plain patterns
 * that maps j's atoms and bonds onto i's with the same primitives, so every match of i in any
 * molecule contains a match of j. Computed once per thread and pattern list (a fixed list).
 */
function containedPatterns(rdkit: RDKit, list: { smiles: string }[]): Int32Array {
  let byList = containedCache.get(rdkit);
  if (!byList) {
    byList = new WeakMap();
    containedCache.set(rdkit, byList);
  }
  let inside = byList.get(list);
  if (inside) return inside;
  inside = new Int32Array(list.length).fill(-1);
  const size = list.map((p) => (p.smiles.match(/[CO]/g) ?? []).length);
  for (let i = 0; i < list.length; i++) {
    if (!PLAIN.test(list[i].smiles)) continue;
    const mol = rdkit.get_mol(list[i].smiles);
    try {
      if (!mol || !mol.is_valid()) continue;
      for (let j = 0; j < list.length; j++) {
        const q = query(rdkit, list[j].smiles);
        if (j === i || !q || !PLAIN.test(list[j].smiles) || size[j] >= size[i]) continue;
        if (inside[i] >= 0 && size[inside[i]] >= size[j]) continue;
        if (mol.get_substruct_match(q) !== '{}') inside[i] = j;
      }
    } finally {
      mol?.delete();
    }
  }
  byList.set(list, inside);
  return inside;
}

/** All matches of all patterns, in list order, each list as RDKit gives it. */
export function matchPatterns(view: MolView, list: { smiles: string }[]): PatternMatch[] {
  const inside = containedPatterns(view.rdkit, list);
  const found: (PatternMatch[] | undefined)[] = new Array(list.length);
  const matchesOf = (i: number): PatternMatch[] => {
    let m = found[i];
    if (m === undefined) {
      const smiles = list[i].smiles;
      const q = query(view.rdkit, smiles);
      if (!q || !view.mayMatch(smiles) || (inside[i] >= 0 && matchesOf(inside[i]).length === 0)) {
        m = [];
      } else {
        const parsed = JSON.parse(view.mol.get_substruct_matches(q, MATCH_OPTIONS) || '[]') as PatternMatch[] | Record<string, never>;
        m = Array.isArray(parsed) ? parsed : [];
      }
      found[i] = m;
    }
    return m;
  };
  return list.flatMap((_, i) => matchesOf(i));
}

/**
 * Natural-product likeness (Ertl, Roggo & Schuffenhauer, J. Chem. Inf. Model. 48, 68-74
 * (2008), doi:10.1021/ci700286x) as computed by RDKit Contrib NP_Score with its public
 * model: each distinct Morgan radius-2 environment present in the molecule contributes its
 * model score once, the sum is divided by the atom count, and scores beyond ±4 are
 * compressed logarithmically.
 */
import type { Mol, RDKit } from '../core/rdkit.ts';
import { FragmentTable, morganCounts, morganGraph, type MorganGraph } from '../core/morgan-env.ts';

export interface NpLikeness {
  score: number;
  /** Share of the molecule's distinct environments that the model knows (0..1). */
  confidence: number;
}

/** Parse the converted model (`id<TAB>score` lines after a header; see data/nplikeness.*). */
export function parseNpModel(tsv: string): FragmentTable {
  const lines = tsv.split('\n');
  const ids = new Uint32Array(lines.length);
  const values = new Float64Array(lines.length);
  let n = 0;
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i];
    if (!line) continue;
    const tab = line.indexOf('\t');
    ids[n] = Number(line.slice(0, tab));
    values[n] = Number(line.slice(tab + 1));
    n++;
  }
  return new FragmentTable(ids.slice(0, n), values.slice(0, n));
}

/** `graph`: the molecule's Morgan graph when the caller already built it. */
export function npLikeness(rdkit: RDKit, mol: Mol, model: FragmentTable, graph: MorganGraph = morganGraph(rdkit, mol)): NpLikeness {
  const atoms = graph.atoms.length;
  if (atoms === 0) return { score: 0, confidence: 0 };
  const ids = [...morganCounts(graph, 2).keys()];
  let score = 0;
  let found = 0;
  for (const id of ids) {
    const v = model.get(id);
    if (v !== undefined) {
      score += v;
      found++;
    }
  }
  score /= atoms;
  // Keep exotic molecules within roughly -5..5, as the published scorer does.
  if (score > 4) score = 4 + Math.log10(score - 4 + 1);
  else if (score < -4) score = -4 - Math.log10(-4 - score + 1);
  return { score, confidence: found / ids.length };
}

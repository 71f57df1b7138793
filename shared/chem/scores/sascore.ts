/**
 * Synthetic accessibility score (Ertl & Schuffenhauer, J. Cheminform. 1:8 (2009),
 * doi:10.1186/1758-2946-1-8) as RDKit Contrib SA_Score computes it (version 1.1): fragment
 * score from the Morgan radius-2 environment counts and the published fragment table,
 * minus size, stereo, spiro, bridgehead and macrocycle penalties, plus a symmetry
 * correction, rescaled to 1 (easy) .. 10 (hard).
 */
import type { Mol, RDKit } from '../core/rdkit.ts';
import { FragmentTable, morganCounts, morganGraph } from '../core/morgan-env.ts';
import { readMolJson } from '../core/commonchem.ts';

/** Parse the converted table (`score<TAB>id id ...` groups after a header; see data/sascore.*). */
export function parseSaTable(text: string): FragmentTable {
  const pairs: [number, number][] = [];
  const lines = text.split('\n');
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i];
    if (!line) continue;
    const tab = line.indexOf('\t');
    const score = Number(line.slice(0, tab));
    for (const id of line.slice(tab + 1).split(' ')) pairs.push([Number(id), score]);
  }
  return FragmentTable.fromPairs(pairs);
}

interface StereoAndRings {
  NumAtomStereoCenters: number;
  NumSpiroAtoms: number;
  NumBridgeheadAtoms: number;
}

export function saScore(rdkit: RDKit, mol: Mol, table: FragmentTable): number {
  const graph = morganGraph(rdkit, mol);
  const counts = morganCounts(graph, 2);
  let score1 = 0;
  let total = 0;
  for (const [id, n] of counts) {
    total += n;
    // Environments the table has never seen count as rare, i.e. hard to make.
    score1 += (table.get(id) ?? -4) * n;
  }
  score1 /= total;

  const d = JSON.parse(mol.get_descriptors()) as StereoAndRings;
  const macrocycles = readMolJson(mol).rings.filter((r) => r.length > 8).length;
  const nAtoms = graph.atoms.length;
  const sizePenalty = nAtoms ** 1.005 - nAtoms;
  const stereoPenalty = Math.log10(d.NumAtomStereoCenters + 1);
  const spiroPenalty = Math.log10(d.NumSpiroAtoms + 1);
  const bridgePenalty = Math.log10(d.NumBridgeheadAtoms + 1);
  // The Contrib code deliberately caps the macrocycle penalty at log10(2) (the paper uses
  // log10(n + 1)); it gives better results with two or more macrocycles.
  const macrocyclePenalty = macrocycles > 0 ? Math.log10(2) : 0;
  const score2 = -sizePenalty - stereoPenalty - spiroPenalty - bridgePenalty - macrocyclePenalty;
  // Symmetry correction (version 1.1): highly symmetric molecules are easier than their
  // fragment count suggests.
  const score3 = nAtoms > counts.size ? Math.log(nAtoms / counts.size) * 0.5 : 0;

  const raw = score1 + score2 + score3;
  const min = -4.0;
  const max = 2.5;
  let sa = 11 - ((raw - min + 1) / (max - min)) * 9;
  if (sa > 8) sa = 8 + Math.log(sa + 1 - 9);
  if (sa > 10) sa = 10;
  else if (sa < 1) sa = 1;
  return sa;
}

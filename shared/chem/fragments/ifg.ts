/**
 * Functional groups after Ertl, "An algorithm to identify functional groups in organic
 * molecules", J. Cheminform. 9:36 (2017), with the conventions of its RDKit Contrib
 * implementation (IFG, Hall & Godin), which the upstream service returns:
 *  1. mark every heteroatom, and the carbons of four kinds: in a non-aromatic double or triple
 *     bond to a heteroatom, in a non-aromatic C=C or C#C, acetal sp3 carbons (two single bonds
 *     to O/N/S), and the carbons of oxirane/aziridine/thiirane rings;
 *  2. merge connected marked atoms into one group;
 *  3. describe each group by the SMILES of its atoms and, generalised with its environment, by
 *     the SMILES of its atoms plus the unmarked carbons bonded to it (the "type").
 * The two SMILES are RDKit fragment SMILES (MolFragmentToSmiles): see fragment-smiles.ts.
 */
import type { Mol, RDKit } from '../core/rdkit.ts';
import { withQuery } from '../core/rdkit.ts';
import { fragmentSmiles, readFragmentGraph, type FragmentGraph } from '../core/fragment-smiles.ts';

/** The Contrib patterns (as published in ifg.py) for the four kinds of marked carbon. */
const CARBON_PATTERNS = [
  'A=,#[!#6]', // atoms in non-aromatic double or triple bonds to a heteroatom
  'C=,#C', // non-aromatic carbon-carbon double or triple bonds
  '[CX4](-[O,N,S])-[O,N,S]', // acetal carbons
  '[O,N,S]1CC1', // three-membered rings with O, N or S
];

export type FunctionalGroup = [atomIds: number[], atoms: string, type: string];

function markedAtoms(rdkit: RDKit, mol: Mol, g: FragmentGraph): Set<number> {
  const marked = new Set<number>();
  g.atoms.forEach((a, i) => {
    if (a.z !== 6 && a.z !== 1) marked.add(i);
  });
  for (const smarts of CARBON_PATTERNS) {
    withQuery(rdkit, smarts, (q) => {
      const raw = JSON.parse(mol.get_substruct_matches(q)) as { atoms: number[] }[] | Record<string, never>;
      if (Array.isArray(raw)) for (const m of raw) for (const i of m.atoms) marked.add(i);
    });
  }
  return marked;
}

/** Connected components of the marked atoms, ordered by their lowest atom index. */
function mergeGroups(g: FragmentGraph, marked: Set<number>): number[][] {
  const seen = new Set<number>();
  const groups: number[][] = [];
  for (const start of [...marked].sort((a, b) => a - b)) {
    if (seen.has(start)) continue;
    const group: number[] = [];
    const stack = [start];
    seen.add(start);
    while (stack.length) {
      const a = stack.pop()!;
      group.push(a);
      for (const { atom } of g.nbrs[a]) {
        if (marked.has(atom) && !seen.has(atom)) {
          seen.add(atom);
          stack.push(atom);
        }
      }
    }
    groups.push(group.sort((a, b) => a - b));
  }
  return groups;
}

export function functionalGroups(rdkit: RDKit, mol: Mol, signal?: AbortSignal): FunctionalGroup[] {
  const g = readFragmentGraph(mol);
  const marked = markedAtoms(rdkit, mol, g);
  return mergeGroups(g, marked).map((group) => {
    signal?.throwIfAborted();
    const env = new Set(group);
    for (const a of group) for (const { atom } of g.nbrs[a]) if (g.atoms[atom].z === 6) env.add(atom);
    return [group, fragmentSmiles(rdkit, g, group), fragmentSmiles(rdkit, g, [...env])];
  });
}

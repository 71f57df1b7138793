/**
 * The structure-search benchmark's queries, shared by bench/search.ts (natprod in process) and
 * bench/cartridge/run.ts (natprod over HTTP next to the RDKit PostgreSQL cartridge): the issue's
 * core substructure queries and the molecules of the set used as exact and similarity queries.
 */

export type CoreQuery = [name: string, query: string, queryType: 'smiles' | 'smarts'];

/** Substructure queries: the core queries are the first CORE_COUNT. */
export const CORES: CoreQuery[] = [
  ['indole', 'c1ccc2[nH]ccc2c1', 'smiles'],
  ['steroid nucleus', '[#6]1~[#6]~[#6]~[#6]2~[#6](~[#6]~1)~[#6]~[#6]~[#6]1~[#6]~2~[#6]~[#6]~[#6]2~[#6]~[#6]~[#6]~[#6]~1~2', 'smarts'],
  ['flavone', 'O=c1cc(-c2ccccc2)oc2ccccc12', 'smiles'],
  ['coumarin', 'O=c1ccc2ccccc2o1', 'smiles'],
  ['beta-lactam', 'O=C1CCN1', 'smiles'],
  ['glucopyranose', 'OCC1OC(O)C(O)C(O)C1O', 'smiles'],
  ['isoprene unit', 'C=CC(C)=C', 'smiles'],
  ['purine', 'c1ncc2nc[nH]c2n1', 'smiles'],
  ['quinoline', 'c1ccc2ncccc2c1', 'smiles'],
  ['tropane', 'C1CC2CCC(C1)N2', 'smiles'],
  ['recursive SMARTS', '[$([OX2H][CX4]);!$(O[CX4][CX4]O)]', 'smarts'],
  ['chiral L-amino acid', 'N[C@@H](C)C(=O)O', 'smiles'],
];

/**
 * The core queries are the first ten; the recursive SMARTS (no fingerprint bits to screen with:
 * nearly every molecule is a candidate) and the chiral query are reported apart.
 */
export const CORE_COUNT = 10;

/** Exact queries: 200 molecules spread evenly over the set, by SMILES. */
export function exactQueries(smiles: string[]): string[] {
  const step = Math.max(1, Math.floor(smiles.length / 200));
  return Array.from({ length: 200 }, (_, i) => smiles[(i * step) % smiles.length]);
}

/** Similarity queries: 50 molecules of the set (top 50 at 0.7). */
export function similarityQueries(smiles: string[]): string[] {
  const step = Math.max(1, Math.floor(smiles.length / 200));
  return Array.from({ length: 50 }, (_, i) => smiles[(i * step * 4 + 7) % smiles.length]);
}

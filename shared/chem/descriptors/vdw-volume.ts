/**
 * Van der Waals volume by atomic and bond contributions (Zhao, Abraham & Zissimos,
 * "Fast calculation of van der Waals volume as a sum of atomic and bond contributions and
 * its application to drug compounds", J. Org. Chem. 68, 7368-7373 (2003),
 * doi:10.1021/jo034808o):
 *
 *   V (Å³ per molecule) = Σ V_atom − 5.92 · N_bonds − 14.7 · R_aromatic − 3.8 · R_non-aromatic
 *
 * V_atom is the volume of the Bondi-radius sphere of each atom, hydrogens included; every
 * bond counts once whatever its order (bonds to hydrogen included); rings are the smallest
 * set of smallest rings, aromatic when all their atoms are aromatic. The method is
 * deterministic, unlike the upstream RDKit grid volume over a random 3D embedding.
 * The atom volumes are the precise values of the paper's supporting spreadsheet as used by
 * CDK's VABCVolume (LGPL; the numbers are data); B is the paper's value.
 */
import type { MorganGraph } from '../core/morgan-env.ts';

/** Bondi atomic volumes in Å³ by atomic number. */
const ATOM_VOLUME: Record<number, number> = {
  1: 7.2382293504,
  5: 40.48,
  6: 20.5795259250667,
  7: 15.5985308577667,
  8: 14.7102267005611,
  9: 13.3057882007064,
  14: 38.7923854248,
  15: 24.4290240576,
  16: 24.4290240576,
  17: 22.4492971208333,
  33: 26.5218483279667,
  34: 28.7309115245333,
  35: 26.5218483279667,
  53: 32.5150310206656,
};

/**
 * @param graph atoms (with H counts) and bonds of the molecule
 * @param rings the molecule's ring atom lists (RDKit ring info)
 * @param aromatic aromatic atom indices
 * @returns the volume in Å³, or null when an element has no published contribution
 */
export function vdwVolume(graph: MorganGraph, rings: number[][], aromatic: Set<number>): number | null {
  let sum = 0;
  let hydrogens = 0;
  for (const atom of graph.atoms) {
    const v = ATOM_VOLUME[atom.z];
    if (v === undefined) return null;
    sum += v + atom.hs * ATOM_VOLUME[1];
    hydrogens += atom.hs;
  }
  sum -= 5.92 * (graph.bonds.length + hydrogens);
  // The SSSR size is the cycle rank; RDKit's ring list can hold extra symmetric rings in
  // cages, so aromatic rings are counted from it but capped by the rank.
  const rank = cycleRank(graph);
  const aromaticRings = Math.min(rank, rings.filter((r) => r.every((i) => aromatic.has(i))).length);
  sum -= 14.7 * aromaticRings + 3.8 * (rank - aromaticRings);
  return sum;
}

/**
 * Edges − vertices + connected components: the number of rings in an SSSR, of the whole graph
 * or of what is left after deleting the `removed` atoms (and their bonds).
 */
export function cycleRank(graph: MorganGraph, removed: ReadonlySet<number> = new Set()): number {
  const parent = graph.atoms.map((_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) {
      parent[i] = parent[parent[i]];
      i = parent[i];
    }
    return i;
  };
  const vertices = graph.atoms.length - removed.size;
  let edges = 0;
  let components = vertices;
  for (const b of graph.bonds) {
    if (removed.has(b.a) || removed.has(b.b)) continue;
    edges++;
    const ra = find(b.a);
    const rb = find(b.b);
    if (ra !== rb) {
      parent[ra] = rb;
      components--;
    }
  }
  return edges - vertices + components;
}

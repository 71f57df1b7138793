/**
 * Canonical tautomer as RDKit's TautomerEnumerator().Canonicalize (2022.09) picks it: enumerate
 * (tautomer-enumerate.ts), score with RDKit's default scoring function (terms in
 * data/tautomer-transforms.json), highest score wins, ties go to the smallest SMILES.
 */
import data from '../data/tautomer-transforms.json' with { type: 'json' };
import type { Mol, RDKit } from '../core/rdkit.ts';
import { matchAtoms, sanitizedMol, type Graph } from './graph.ts';
import { catalog, enumerateTautomers } from './enumerate.ts';

export { enumerateTautomers } from './enumerate.ts';

/** RDKit's default tautomer score: aromatic rings, substructure terms, H on P/S/Se/Te. */
export function scoreTautomer(rdkit: RDKit, mol: Mol, g: Graph): number {
  const { terms } = catalog(rdkit);
  let score = 0;
  const bondIndex = new Map<string, number>();
  g.bonds.forEach((b, i) => bondIndex.set(b.a < b.b ? `${b.a},${b.b}` : `${b.b},${b.a}`, i));
  for (const ring of g.rings) {
    let aromatic = true;
    let allCarbon = true;
    for (let i = 0; i < ring.length && aromatic; i++) {
      const a = ring[i];
      const b = ring[(i + 1) % ring.length];
      const bi = bondIndex.get(a < b ? `${a},${b}` : `${b},${a}`);
      if (bi === undefined || !g.aromaticBonds.has(bi)) aromatic = false;
      else if (g.atoms[a].z !== 6 || g.atoms[b].z !== 6) allCarbon = false;
    }
    if (aromatic) score += data.scoring.rings.aromatic + (allCarbon ? data.scoring.rings.allCarbonExtra : 0);
  }
  for (const term of terms) score += matchAtoms(mol, term.query).length * term.score;
  for (const a of g.atoms) if (data.scoring.heteroHElements.includes(a.z)) score -= a.hs;
  return score;
}

/** The canonical tautomer of a sanitised molecule as a new molecule (caller deletes it). */
export function canonicalTautomerMol(rdkit: RDKit, mol: Mol, signal?: AbortSignal): Mol {
  const { tautomers } = enumerateTautomers(rdkit, mol, signal);
  let best: Graph | undefined;
  if (tautomers.size === 1) {
    best = tautomers.values().next().value;
  } else {
    let bestScore = -Infinity;
    let bestKey = '';
    for (const [key, g] of tautomers) {
      const tmol = sanitizedMol(rdkit, g);
      if (!tmol) continue;
      let score: number;
      try {
        score = scoreTautomer(rdkit, tmol, g);
      } finally {
        tmol.delete();
      }
      if (score > bestScore || (score === bestScore && key < bestKey)) {
        bestScore = score;
        bestKey = key;
        best = g;
      }
    }
  }
  // Stereo is perceived again on the winner only, as RDKit's pickCanonical does: read back
  // from its SMILES, since rdkitjson loses double-bond stereo when perception runs on it.
  const settled = best ? sanitizedMol(rdkit, best) : null;
  let out: Mol | null = null;
  if (settled) {
    try {
      out = rdkit.get_mol(settled.get_smiles());
    } finally {
      settled.delete();
    }
  }
  if (!out || !out.is_valid()) {
    out?.delete();
    const copy = rdkit.get_mol_copy(mol);
    if (!copy) throw new Error('tautomer: could not copy the input molecule');
    return copy;
  }
  return out;
}

/** Atom-map numbers are dropped before canonicalising, as the original service does. */
function withoutAtomMaps(smiles: string): string {
  return smiles.replace(/(\[[^\]:]*):\d+\]/g, '$1]');
}

/**
 * The `standardize_tautomer` pipeline (docs/spec/chem-service.md §2.1 (14)): parse, drop atom maps, canonical
 * isomeric Kekulé SMILES, read again, canonical tautomer, canonical isomeric Kekulé SMILES.
 */
export function standardizeTautomerSmiles(rdkit: RDKit, mol: Mol, signal?: AbortSignal): string {
  const kekule = mol.get_smiles(JSON.stringify({ doKekule: true }));
  const again = rdkit.get_mol(withoutAtomMaps(kekule));
  if (!again || !again.is_valid()) {
    again?.delete();
    throw new Error('tautomer: canonical SMILES did not read back');
  }
  try {
    const canon = canonicalTautomerMol(rdkit, again, signal);
    try {
      return canon.get_smiles(JSON.stringify({ doKekule: true }));
    } finally {
      canon.delete();
    }
  } finally {
    again.delete();
  }
}

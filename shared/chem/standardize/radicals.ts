/**
 * Radical fixing as the original service's /chem/fixRadicals does it with CDK (its
 * fix_radicals.py over its port of CDK's MolOp.perceiveRadicals), re-implemented on RDKit.
 *
 * Perception looks at neutral, non-aromatic C, N and O only, and at their valence v = hydrogens +
 * sum of bond orders, with two independent tests per element, so some atoms get two electrons:
 *   C: one electron when v < 4, one more when v == 2;  N: one when v < 3;
 *   O: one when v < 2, one more when v < 1.
 * Every perceived electron is "fixed" by one more hydrogen on its atom; CDK's hydrogen adder then
 * completes what is still short (a lone [CH] or [N]), which here means filling the fixed atoms
 * to the plain valence of their element (C 4, N 3, O 2). RDKit's own radical count is not used:
 * a radical on another element, or on a charged or aromatic atom, is neither counted nor fixed,
 * as upstream.
 */
import { AppError } from '../../errors.ts';
import type { Mol, RDKit } from '../core/rdkit.ts';
import { readMolJson } from '../core/commonchem.ts';

export interface FixedRadicals {
  fixed_smiles: string;
  radicals_detected: number;
  radicals_fixed: number;
}

const PLAIN_VALENCE: Record<number, number> = { 6: 4, 7: 3, 8: 2 };

/** Electrons CDK's perception puts on a neutral, non-aromatic atom of element z with valence v. */
export function perceivedElectrons(z: number, v: number): number {
  if (z === 6) return (v < 4 ? 1 : 0) + (v === 2 ? 1 : 0);
  if (z === 7) return v < 3 ? 1 : 0;
  if (z === 8) return (v < 2 ? 1 : 0) + (v < 1 ? 1 : 0);
  return 0;
}

/**
 * @returns the molecule with its C/N/O radicals saturated, as RDKit canonical Kekulé SMILES
 *   (isomeric), and the counts upstream reports.
 */
export function fixRadicals(rdkit: RDKit, mol: Mol): FixedRadicals {
  const m = readMolJson(mol);
  const valence = m.atoms.map((a) => a.impHs);
  for (const b of m.bonds) {
    valence[b.a] += b.order;
    valence[b.b] += b.order;
  }
  const fixes = new Map<number, number>();
  let detected = 0;
  m.atoms.forEach((a, i) => {
    if (a.chg !== 0 || m.aromaticAtoms.has(i)) return;
    const n = perceivedElectrons(a.z, valence[i]);
    if (n > 0) fixes.set(i, n);
    detected += n;
  });
  const kekule = JSON.stringify({ doKekule: true });
  if (detected === 0) return { fixed_smiles: mol.get_smiles(kekule), radicals_detected: 0, radicals_fixed: 0 };

  const doc = JSON.parse(mol.get_json()) as { molecules: { atoms: { impHs?: number; nRad?: number }[] }[] };
  const atoms = doc.molecules[0].atoms;
  for (const [i, n] of fixes) {
    const bonds = valence[i] - m.atoms[i].impHs;
    // One hydrogen per electron, then whatever the element's plain valence still lacks.
    atoms[i].impHs = Math.max(m.atoms[i].impHs + n, PLAIN_VALENCE[m.atoms[i].z] - bonds);
    atoms[i].nRad = 0;
  }
  let fixed: Mol | null = null;
  try {
    fixed = rdkit.get_mol(JSON.stringify(doc));
    if (!fixed || !fixed.is_valid()) throw new AppError(422, 'Processing error: the molecule with its radicals fixed could not be rebuilt', 'invalid_input');
    return { fixed_smiles: fixed.get_smiles(kekule), radicals_detected: detected, radicals_fixed: detected };
  } finally {
    fixed?.delete();
  }
}

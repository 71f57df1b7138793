/**
 * Explicit hydrogen removal as the ChEMBL pipeline does it (standardizer.remove_hs_from_mol):
 * RDKit's RemoveHs with default parameters, except that a hydrogen is also kept when
 *  - its bond to the molecule is a wedge or hash,
 *  - its neighbour carries a tetrahedral chiral tag,
 *  - its neighbour is not "simply protonated" (charge +1 and a valence one above the default)
 *    and either exceeds its default valence or has three or more ring bonds.
 * RemoveHs itself keeps isotopic hydrogens, H2, hydrogens with no or several neighbours, those on
 * dummy atoms and a hydrogen that alone defines a double bond's configuration (imines).
 */
import type { RDKit } from '../core/rdkit.ts';
import { defaultValence } from './elements.ts';
import { atomicNumber, bondValence, neighbourLists, removeAtoms, ringBonds, type Molfile } from './molfile.ts';
import { atomViews, withRawMol } from './rdkit.ts';

/** A double bond whose configuration the drawing defines (not crossed, not in a ring, substituted at both ends). */
function definedDoubleBond(m: Molfile, bond: number, nbrs: ReturnType<typeof neighbourLists>, inRing: boolean[]): boolean {
  const b = m.bonds[bond];
  if (b.order !== 2 || b.stereo === 3 || inRing[bond]) return false;
  return nbrs[b.a].length >= 2 && nbrs[b.b].length >= 2;
}

export function removeHydrogens(rdkit: RDKit, m: Molfile): Molfile {
  const views = withRawMol(rdkit, m, atomViews);
  const nbrs = neighbourLists(m);
  const inRing = ringBonds(m);
  const remove = new Set<number>();
  m.atoms.forEach((atom, i) => {
    if (atomicNumber(atom) !== 1 || atom.isotope || nbrs[i].length !== 1) return;
    const { atom: heavy, bond } = nbrs[i][0];
    const nbr = m.atoms[heavy];
    const z = atomicNumber(nbr);
    if (z <= 1) return;
    const bnd = m.bonds[bond];
    if (bnd.stereo === 1 || bnd.stereo === 6) return;
    // RDKit's explicit valence: bond orders plus hydrogens fixed on the atom.
    const explicitValence = bondValence(m, heavy) + (nbr.hs ?? 0);
    const dflt = defaultValence(z);
    const protonated = nbr.charge === 1 && explicitValence === dflt + 1;
    if (views[heavy].chiral) return;
    if (!protonated) {
      if (explicitValence > dflt) return;
      if (nbrs[heavy].filter((n) => inRing[n.bond]).length >= 3) return;
    }
    if (nbrs[heavy].length === 2 && nbrs[heavy].some((n) => n.bond !== bond && definedDoubleBond(m, n.bond, nbrs, inRing))) return;
    remove.add(i);
  });
  if (!remove.size) return m;
  const out = removeAtoms(m, remove);
  // A heavy atom with a fixed hydrogen count keeps its total: the removed atoms join the count.
  const kept = m.atoms.map((_, i) => i).filter((i) => !remove.has(i));
  kept.forEach((old, idx) => {
    const a = out.atoms[idx];
    if (a.hs === undefined) return;
    a.hs += nbrs[old].filter((n) => remove.has(n.atom)).length;
  });
  return out;
}

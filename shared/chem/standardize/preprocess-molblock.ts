/**
 * A 2D molblock that reads back as the same structure. RDKit's writer can lose information the
 * SMILES had: a double bond left unspecified gets a configuration from the drawn coordinates
 * (nothing marks it "either"), and when the layout places atoms on top of each other a
 * stereocentre can no longer be read from its wedges. Pre-processing hands its molblocks to the
 * standardizer and the checker, so it checks the round trip: unspecified double bonds that come
 * back configured are marked crossed (molfile stereo 3), and if configurations are still lost the
 * layout is redone with CoordGen. A structure that survives neither way is returned as drawn by
 * RDKit (rare; it is what the original service would have used too).
 */
import type { Mol, RDKit } from '../core/rdkit.ts';
import { parseV2000, writeV2000 } from './molfile.ts';
import { isConfiguredBond, readMolJson, type JsonBond } from '../core/commonchem.ts';

const REMOVE_HS = JSON.stringify({ removeHs: true });

function bondsOf(mol: Mol): JsonBond[] {
  return readMolJson(mol).bonds;
}

function reread(rdkit: RDKit, molblock: string): { smiles: string; bonds: JsonBond[] } | undefined {
  const back = rdkit.get_mol(molblock, REMOVE_HS);
  try {
    return back?.is_valid() ? { smiles: back.get_smiles(), bonds: bondsOf(back) } : undefined;
  } finally {
    back?.delete();
  }
}

const configured = (b: JsonBond | undefined) => b !== undefined && isConfiguredBond(b.stereo);

/** Marks double bonds that read back configured although the molecule leaves them open. */
function crossUnspecified(molblock: string, original: JsonBond[], back: JsonBond[]): string {
  if (/V3000/.test(molblock)) return molblock;
  const table = parseV2000(molblock);
  let changed = false;
  original.forEach((b, i) => {
    if (b.order !== 2 || configured(b) || !configured(back[i]) || !table.bonds[i]) return;
    table.bonds[i].stereo = 3;
    changed = true;
  });
  return changed ? writeV2000(table) : molblock;
}

export function faithfulMolblock(rdkit: RDKit, mol: Mol): string {
  const target = mol.get_smiles();
  const original = bondsOf(mol);
  let molblock = '';
  for (const coordgen of [false, true]) {
    if (coordgen || !mol.has_coords()) mol.set_new_coords(coordgen);
    molblock = mol.get_molblock();
    const back = reread(rdkit, molblock);
    if (!back) continue;
    if (back.smiles === target) return molblock;
    const marked = crossUnspecified(molblock, original, back.bonds);
    if (reread(rdkit, marked)?.smiles === target) return marked;
  }
  return molblock;
}

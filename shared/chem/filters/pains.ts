/**
 * PAINS substructure filters (Baell & Holloway, J. Med. Chem. 53, 2719-2740 (2010); SMARTS
 * by Saubern, Guha & Baell, Mol. Inform. 30, 847-850 (2011), as curated in RDKit's
 * Data/Pains/wehi_pains.csv: families A, B and C, 480 entries).
 *
 * The SMARTS spell hydrogens as explicit `[#1]` atoms. RDKit's FilterCatalog merges them into
 * H-count queries; MinimalLib cannot merge query hydrogens, so the molecule is matched with
 * explicit hydrogens instead, which is equivalent for these patterns (none uses the D
 * primitive, the only one that would count explicit H neighbours differently).
 */
import type { Mol, RDKit } from '../core/rdkit.ts';
import { hasMatch, query } from '../core/smarts.ts';

export interface PainsEntry {
  smarts: string;
  /** The regId, e.g. `catechol_A(92)`: name and number of training compounds matched. */
  name: string;
}

/** Parse wehi_pains.csv: lines of `"<SMARTS>","<regId=NAME(N)>"`. */
export function parsePains(csv: string): PainsEntry[] {
  const entries: PainsEntry[] = [];
  for (const line of csv.split('\n')) {
    const m = /^"([^"]+)","<regId=([^>]+)>"\s*$/.exec(line);
    if (m) entries.push({ smarts: m[1], name: m[2] });
  }
  return entries;
}

/** Names of the PAINS entries that match the molecule (empty when clean). */
export function painsMatches(rdkit: RDKit, mol: Mol, entries: PainsEntry[]): string[] {
  const withH = rdkit.get_mol(mol.add_hs(), JSON.stringify({ removeHs: false }));
  try {
    if (!withH || !withH.is_valid()) throw new Error('could not add hydrogens');
    const names: string[] = [];
    for (const e of entries) {
      const q = query(rdkit, e.smarts);
      if (q && hasMatch(withH, q)) names.push(e.name);
    }
    return names;
  } finally {
    withH?.delete();
  }
}

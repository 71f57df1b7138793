/**
 * The InChI warnings the ChEMBL checker scores. The pipeline reads them from the InChI library's
 * message when it converts the molblock; MinimalLib returns the InChI string only, so the
 * warnings are recovered from the structure and from InChI strings:
 *  - "Omitted undefined stereo": the InChI with undefined stereo included (option SUU) marks
 *    more stereo elements "?" than the standard InChI keeps (exactly InChI's own test), the
 *    counts corrected where InChI's reading of the drawing defines other elements than RDKit's
 *    (see "Ambiguous stereo");
 *  - "Proton(s) added/removed": the InChI has a /p layer, or InChI's charge normalisation moves
 *    protons without a net change (a protonated cation with hydrogens, or a free anion next to
 *    an acidic OH);
 *  - "Charges were rearranged": a cation next to an anion that InChI writes as a neutral
 *    hypervalent group (nitro, N-oxide of an sp2 nitrogen, azide, diazo, sulfoxide, phosphine
 *    oxide, ylides);
 *  - "Metal was disconnected" / "Salt was disconnected": a bond from a metal to a non-metal
 *    (a "salt" when an alkali or alkaline-earth metal sits on the conjugate base of an acid);
 *  - "Accepted unusual valence(s)": a p-block atom whose bonds plus hydrogens are not a valence
 *    InChI accepts for its element and charge (isoelectronic rule: N+ like C, O- like F ...);
 *    hydrogens are counted as InChI's molfile reader adds them (only up to the lowest valence).
 *  - "Ambiguous stereo": InChI's own reading of the 2D drawing, redone in checker-stereo.ts (readStereo): the
 *    geometry of the bonds around each wedged possible stereocentre and around each double bond
 *    (coplanar or near-flat bond tetrahedra, contradictory or misplaced wedges, a centre outside
 *    its bonds, a substituent in line with its double bond), for the elements InChI keeps as
 *    stereogenic. The same reading gives the centres InChI leaves undefined or defines where
 *    RDKit's reading of the wedges differs, which the checker's stereo count needs.
 * These rules were checked against the InChI executable (inchi_main 1.03) on the fixture sets,
 * see test/fixtures/README.md (inchi_ambiguous_stereo.sdf.gz for "Ambiguous stereo").
 */
import type { Mol } from '../core/rdkit.ts';
import { atomicNumber, neighbourLists, type Molfile } from './molfile.ts';
import type { StereoReading } from './checker-stereo.ts';

export const InchiWarning = {
  undefinedStereo: 'Omitted undefined stereo',
  protons: 'Proton(s) added/removed',
  charges: 'Charges were rearranged',
  metal: 'Metal was disconnected',
  salt: 'Salt was disconnected',
  valence: 'Accepted unusual valence(s)',
  ambiguous: 'Ambiguous stereo',
} as const;

const NON_METALS = new Set([1, 2, 5, 6, 7, 8, 9, 10, 14, 15, 16, 17, 18, 33, 34, 35, 36, 52, 53, 54, 85, 86]);
const ALKALI_EARTH = new Set([3, 4, 11, 12, 19, 20, 37, 38, 55, 56, 87, 88]);

/** Group (13-17) and period of a p-block element, undefined otherwise. */
const P_BLOCK: Record<number, [number, number]> = {
  5: [13, 2], 6: [14, 2], 7: [15, 2], 8: [16, 2], 9: [17, 2],
  13: [13, 3], 14: [14, 3], 15: [15, 3], 16: [16, 3], 17: [17, 3],
  31: [13, 4], 32: [14, 4], 33: [15, 4], 34: [16, 4], 35: [17, 4],
  49: [13, 5], 50: [14, 5], 51: [15, 5], 52: [16, 5], 53: [17, 5],
};

function acceptedValences(group: number, period: number): number[] {
  if (group === 13) return [3];
  if (group === 14) return [4];
  if (group === 15) return [3, 5];
  if (group === 16) return period === 2 ? [2] : [2, 4, 6];
  if (group === 17) return period === 2 ? [1] : [1, 3, 5, 7];
  return [];
}

function countQuestionMarks(inchi: string, layers = 'tb'): number {
  return inchi
    .split('/')
    .filter((layer) => layers.includes(layer[0]))
    .reduce((n, layer) => n + (layer.match(/\?/g)?.length ?? 0), 0);
}

/**
 * InChI omits a stereo layer whose elements are all undefined. MinimalLib's InChI takes centre
 * configurations from RDKit's tags; where InChI's own reading of the wedges defines more or fewer
 * centres (`definedShift`, one-component structures), the centre layer is recounted.
 */
function omitsUndefined(view: InchiView): boolean {
  const formula = view.undefinedIncluded.split('/')[1] ?? '';
  const shifts: [string, number][] = [['t', view.stereo?.definedShift ?? 0], ['b', view.stereo?.definedBondShift ?? 0]];
  return shifts.some(([kind, shift]) => {
    if (!shift || formula.includes('.')) return countQuestionMarks(view.undefinedIncluded, kind) > countQuestionMarks(view.standard, kind);
    const elements = view.undefinedIncluded.split('/').find((layer) => layer.startsWith(kind))?.slice(1).split(',') ?? [];
    const undefinedCount = elements.filter((c) => c.endsWith('?')).length;
    return elements.length - undefinedCount + shift === 0 && undefinedCount - shift > 0;
  });
}

export interface InchiView {
  standard: string;
  undefinedIncluded: string;
  /** Hydrogens per atom as RDKit perceives them. */
  hs: number[];
  /** InChI's reading of the drawing's stereo (readStereo). */
  stereo?: StereoReading;
}

/** The warnings InChI would report for this structure, in InChI's order. */
export function inchiWarnings(m: Molfile, view: InchiView): string[] {
  const out: string[] = [];
  const nbrs = neighbourLists(m);
  const z = m.atoms.map(atomicNumber);
  const metal = (i: number) => z[i] > 0 && !NON_METALS.has(z[i]);
  let salt = false;
  let disconnected = false;
  for (const b of m.bonds) {
    for (const [mt, x] of [[b.a, b.b], [b.b, b.a]]) {
      if (!metal(mt) || metal(x)) continue;
      const acidBase =
        ALKALI_EARTH.has(z[mt]) && [7, 8, 16].includes(z[x]) &&
        nbrs[x].some((n) => n.atom !== mt && nbrs[n.atom].some((o) => o.atom !== x && m.bonds[o.bond].order === 2 && [7, 8, 16].includes(z[o.atom])));
      if (acidBase) salt = true;
      else disconnected = true;
    }
  }
  if (salt) out.push(InchiWarning.salt);
  if (disconnected) out.push(InchiWarning.metal);

  const pairCharged = (i: number) => nbrs[i].some((n) => Math.sign(m.atoms[n.atom].charge) === -Math.sign(m.atoms[i].charge) && m.atoms[i].charge !== 0);
  const rearranged = m.atoms.some((a, i) => {
    if (a.charge !== 1) return false;
    return nbrs[i].some(({ atom, bond }) => {
      if (m.atoms[atom].charge !== -1 || m.bonds[bond].order > 2) return false;
      if (z[i] === 7) return nbrs[i].length <= 3 && nbrs[i].some((n) => m.bonds[n.bond].order >= 2 || m.bonds[n.bond].order === 4);
      return [15, 16, 33, 34, 52].includes(z[i]);
    });
  });
  if (rearranged) out.push(InchiWarning.charges);

  const protonatedCation = m.atoms.some((a, i) => a.charge > 0 && [7, 8, 15, 16].includes(z[i]) && view.hs[i] > 0 && !pairCharged(i));
  const freeAnion = m.atoms.some((a, i) => a.charge < 0 && [8, 9, 16, 17, 35, 53].includes(z[i]) && !pairCharged(i));
  const acidicOH = m.atoms.some(
    (a, i) => z[i] === 8 && a.charge === 0 && view.hs[i] > 0 &&
      nbrs[i].some((n) => nbrs[n.atom].some((o) => o.atom !== i && m.bonds[o.bond].order === 2 && z[o.atom] === 8)),
  );
  if (/\/p[+-]/.test(view.standard) || protonatedCation || (freeAnion && acidicOH)) out.push(InchiWarning.protons);

  const unusual = m.atoms.some((a, i) => {
    const pb = P_BLOCK[z[i]];
    if (!pb || a.radical || nbrs[i].some((n) => metal(n.atom)) || Math.abs(a.charge) > 2) return false;
    const shifted = pb[0] - a.charge;
    if (shifted < 13 || shifted > 17) return false;
    const accepted = acceptedValences(shifted, pb[1]);
    let bonds = 0;
    for (const n of nbrs[i]) bonds += m.bonds[n.bond].order === 4 ? 1.5 : m.bonds[n.bond].order;
    bonds = Math.round(bonds);
    // InChI's molfile reader adds hydrogens only up to the lowest normal valence.
    const hs = a.hs ?? Math.max(0, accepted[0] - bonds);
    const valence = bonds + hs;
    return valence > 0 && !accepted.includes(valence);
  });
  if (unusual) out.push(InchiWarning.valence);

  if (omitsUndefined(view)) out.push(InchiWarning.undefinedStereo);
  if (view.stereo?.ambiguous) out.push(InchiWarning.ambiguous);
  return out;
}

/** Standard InChI and the InChI with undefined stereo marked, from RDKit's reading of the molblock. */
export function inchiPair(mol: Mol): { standard: string; undefinedIncluded: string } {
  const get = (opts?: string) => {
    try {
      return opts ? mol.get_inchi(opts) : mol.get_inchi();
    } catch {
      return '';
    }
  };
  return { standard: get(), undefinedIncluded: get('-SUU') };
}

/**
 * The Murcko framework (descriptors-murcko.ts) cut out of MinimalLib's molecule JSON instead of
 * a V3000 molblock with 2D coordinates. The molblock route needs the coordinates only for
 * stereo: RDKit re-perceives tetrahedral centres from the wedges of a 2D drawing of the whole
 * molecule and double bonds from the drawn geometry. Without stereo to carry, this route
 * skips the coordinates, the molblock writer and its parser (~1.5 ms of ~2 ms per molecule)
 * and gives the same framework.
 *
 * Tetrahedral centres are carried as the molecule's own chiral tags, which is what RDKit's
 * MurckoScaffold does; the drawing-based perception of the molblock route can lose or even invert
 * centres in cages (on the LOTUS demo set: 1 of 1,000 frameworks, a diterpenoid alkaloid cage
 * where native RDKit agrees with this route; test/chem/descriptors.test.ts).
 *
 * It answers undefined, and the caller takes the molblock route, whenever the two could
 * differ otherwise:
 * - a kept double bond with any stereo mark (RDKit's JSON reader drops E/Z), or a double bond
 *   in a ring of 8 or more atoms (the molblock route perceives E/Z there from the geometry);
 * - radicals, dummy or hydrogen atoms in the framework, bonds other than single/double/triple;
 * - a kept atom that loses a neighbour, unless it is a neutral C, N or O at its only allowed
 *   valence (the molblock route gives it hydrogens by valence: here, the lost bond orders).
 * Molecules read from anything but a plain SMILES never come here (MolView.plainSmiles): the
 * JSON leaves out atom maps, CX labels and groups, which the molblock carries.
 */
import type { MolJson } from '../core/commonchem.ts';

/** RDKit's only allowed valence of the neutral elements a trimmed atom may be. */
const VALENCE: Record<number, number> = { 6: 4, 7: 3, 8: 2 };

const HEADER =
  '{"rdkitjson":{"version":12},"defaults":{"atom":{"z":6,"impHs":0,"chg":0,"nRad":0,"isotope":0,"stereo":"unspecified"},' +
  '"bond":{"bo":1,"stereo":"unspecified"}},"molecules":[{"atoms":[';

/** Whether bond a-b is an edge of one of RDKit's rings of 8 or more atoms. */
function inLargeRing(m: MolJson, a: number, b: number): boolean {
  for (const ring of m.rings) {
    if (ring.length < 8) continue;
    const i = ring.indexOf(a);
    if (i >= 0 && (ring[(i + 1) % ring.length] === b || ring[(i + ring.length - 1) % ring.length] === b)) return true;
  }
  return false;
}

/**
 * The framework as rdkitjson (Kekulé bond orders, no aromaticity block: the reader perceives
 * aromaticity on the framework, as it does reading the Kekulé molblock), or undefined when
 * the molblock route must decide.
 */
export function frameworkJson(m: MolJson, keep: boolean[], trimmed: Set<number>): string | undefined {
  const n = m.atoms.length;
  const index = new Int32Array(n).fill(-1);
  let kept = 0;
  for (let i = 0; i < n; i++) if (keep[i]) index[i] = kept++;
  const valenceBefore = new Int32Array(n);
  const valenceAfter = new Int32Array(n);
  let bonds = '';
  for (let bi = 0; bi < m.bonds.length; bi++) {
    const { a, b, order, stereo } = m.bonds[bi];
    // Zero-order, dative ... bonds: a lost neighbour would not show in the valence sums.
    if (order < 1 || order > 3) return undefined;
    valenceBefore[a] += order;
    valenceBefore[b] += order;
    if (!keep[a] || !keep[b]) continue;
    if (stereo !== 'unspecified') return undefined;
    if (order === 2 && !m.aromaticBonds.has(bi) && inLargeRing(m, a, b)) return undefined;
    valenceAfter[a] += order;
    valenceAfter[b] += order;
    bonds += `${bonds ? ',' : ''}{${order === 1 ? '' : `"bo":${order},`}"atoms":[${index[a]},${index[b]}]}`;
  }
  let atoms = '';
  for (let i = 0; i < n; i++) {
    if (!keep[i]) continue;
    const atom = m.atoms[i];
    if (atom.z <= 1 || atom.nRad !== 0) return undefined;
    // Tetrahedral centres: a trimmed atom loses its stereo (as in RDKit's scaffold); one that
    // keeps every neighbour keeps its tag, which stays true because its bonds are written in
    // their original order (the tag is relative to that order). The reader re-assigns stereo
    // and drops a tag whose atom is no longer a centre in the framework.
    const chiral = atom.stereo === 'cw' || atom.stereo === 'ccw';
    if (atom.stereo !== 'unspecified' && !chiral) return undefined;
    let hs = atom.impHs;
    // Kept atoms that lose a neighbour (trimmed ring/linker atoms, double-bonded side atoms
    // whose own substituents go) get hydrogens by valence in the molblock route.
    if (valenceAfter[i] !== valenceBefore[i]) {
      const v = VALENCE[atom.z];
      if (v === undefined || atom.chg !== 0 || atom.impHs !== v - valenceBefore[i]) return undefined;
      hs = v - valenceAfter[i];
    }
    const fields: string[] = [];
    if (atom.z !== 6) fields.push(`"z":${atom.z}`);
    if (hs) fields.push(`"impHs":${hs}`);
    if (atom.chg) fields.push(`"chg":${atom.chg}`);
    if (atom.isotope) fields.push(`"isotope":${atom.isotope}`);
    if (chiral && !trimmed.has(i)) fields.push(`"stereo":"${atom.stereo}"`);
    atoms += `${atoms ? ',' : ''}{${fields.join(',')}}`;
  }
  return `${HEADER}${atoms}],"bonds":[${bonds}]}]}`;
}

/**
 * InChI's reading of the stereo in a drawing, for the ChEMBL checker's InChI warnings
 * (checker-inchi.ts): which wedged centres and double bonds InChI would call "Ambiguous stereo",
 * and where its reading of the wedges defines other elements than RDKit's.
 */
import type { Mol, RDKit } from '../core/rdkit.ts';
import { isChiralTag, isConfiguredBond, parseMolJson } from '../core/commonchem.ts';
import { atomicNumber, neighbourLists, type Molfile, type Neighbour } from './molfile.ts';
import { MIN_BOND_LEN, normalsAgree, readBondEnd, readCentre, sub, type Reading, type V3 } from './checker-stereo-geometry.ts';

/**
 * The neighbour count (bonds plus hydrogens, 3 when a lone pair is the fourth) of an atom InChI
 * accepts as a possible stereocentre, 0 otherwise: C, Si, Ge, Sn with four single bonds, B(-),
 * As(+), N(+), P(+) with four, N(V) and P(V) with one double bond, S and Se with three or four
 * (sulfoxide, sulfonium and their analogues), an N with three in a three-membered ring.
 */
function centreSize(z: number, charge: number, orders: number[], hs: number, inThreeRing: boolean): number {
  if (orders.some((o) => o !== 1 && o !== 2)) return 0;
  const n = orders.length + hs;
  const valence = orders.reduce((a, b) => a + b, 0) + hs;
  const doubles = orders.filter((o) => o === 2).length;
  const is = (size: number, v: number) => n === size && valence === v && (v === size ? doubles === 0 : doubles >= v - size);
  if ([6, 14, 32, 50].includes(z) && charge === 0 && is(4, 4)) return 4;
  if (z === 5 && charge === -1 && is(4, 4)) return 4;
  if (hs > 0) return 0;
  if (z === 33 && charge === 1 && is(4, 4)) return 4;
  if (z === 16 || z === 34) {
    if (charge === 0 && is(3, 4)) return 3;
    if (charge === 0 && is(4, 6)) return 4;
    if (charge === 1 && is(3, 3)) return 3;
    if (charge === 1 && is(4, 5)) return 4;
  }
  if (z === 7 || z === 15) {
    if (charge === 1 && is(4, 4)) return 4;
    if (charge === 0 && is(4, 5)) return 4;
    if (z === 7 && charge === 0 && is(3, 3) && inThreeRing) return 3;
  }
  return 0;
}

/** The parts of MinimalLib's JSON that a probe edits (the JSON is read with commonchem.ts). */
interface EditableJson {
  molecules: { atoms: { stereo?: string }[]; bonds?: { atoms: [number, number]; stereo?: string; stereoAtoms?: [number, number] }[]; conformers?: unknown }[];
}

/** InChI's reading of the drawing's stereo, compared with RDKit's. */
export interface StereoReading {
  /** A stereogenic centre or double bond that InChI reads as ambiguous (its "Ambiguous stereo" warning). */
  ambiguous: boolean;
  /**
   * Centres InChI reads as defined minus those RDKit's reading of the wedges defines: the
   * difference between the defined centres of the InChI of the molblock and of MinimalLib's InChI
   * (which InChI computes from RDKit's chiral tags).
   */
  definedShift: number;
  /** The same for double bonds. */
  definedBondShift: number;
}

/**
 * Reads the drawing's stereo as InChI does. `mol` is RDKit's reading of the same molblock (same
 * atom and bond order) and `hs` its hydrogens per atom. Whether InChI keeps an element as
 * stereogenic is taken from RDKit's tags, or, for an element RDKit left unassigned, by asking
 * InChI (through MinimalLib) whether configuring that element changes the InChI.
 */
export function readStereo(rdkit: RDKit, mol: Mol, m: Molfile, hs: number[]): StereoReading {
  const nbrs = neighbourLists(m);
  const z = m.atoms.map(atomicNumber);
  const json = mol.get_json();
  const rdkitView = parseMolJson(json);
  const tagged = (i: number) => isChiralTag(rdkitView.atoms[i]?.stereo ?? '');
  const bondStereo = (k: number) => rdkitView.bonds[k]?.stereo ?? '';
  const taggedBond = (k: number) => isConfiguredBond(bondStereo(k));
  // Probes: the same molecule without coordinates, one element configured, written back as JSON.
  const doc = JSON.parse(json) as EditableJson;
  delete doc.molecules[0].conformers;
  const inchiOf = (edit: (d: EditableJson) => void): string => {
    const copy = JSON.parse(JSON.stringify(doc)) as EditableJson;
    edit(copy);
    let probe: Mol | null = null;
    try {
      probe = rdkit.get_mol(JSON.stringify(copy), JSON.stringify({ assignStereo: false }));
      return probe?.is_valid() ? probe.get_inchi() : '';
    } catch {
      return '';
    } finally {
      probe?.delete();
    }
  };
  let plain: string | undefined;
  const changes = (edit: (d: EditableJson) => void) => {
    plain ??= inchiOf(() => {});
    const edited = inchiOf(edit);
    return plain !== '' && edited !== '' && edited !== plain;
  };
  const stereogenicCentre = (i: number) => tagged(i) || changes((d) => { d.molecules[0].atoms[i].stereo = 'cw'; });
  const stereogenicBond = (k: number) => {
    if (taggedBond(k)) return true;
    const { a, b } = m.bonds[k];
    const ends = [[a, b], [b, a]].map(([x, other]) => nbrs[x].find((n) => n.atom !== other)?.atom);
    if (ends[0] === undefined || ends[1] === undefined) return false;
    return changes((d) => {
      const bond = d.molecules[0].bonds![k];
      bond.stereo = 'cis';
      bond.stereoAtoms = bond.atoms[0] === a ? [ends[0]!, ends[1]!] : [ends[1]!, ends[0]!];
    });
  };

  const xyz = (i: number): V3 => [m.atoms[i].x, m.atoms[i].y, m.atoms[i].z];
  const isH = (i: number) => z[i] === 1 && nbrs[i].length === 1;
  // InChI gives no configuration to double bonds in rings of fewer than 8 atoms.
  const inSmallRing = (a: number, b: number) => {
    let frontier = [a];
    const seen = new Set([a]);
    for (let depth = 1; depth <= 6 && frontier.length; depth++) {
      const next: number[] = [];
      for (const x of frontier) {
        for (const { atom } of nbrs[x]) {
          if (x === a && atom === b) continue;
          if (atom === b) return true;
          if (!seen.has(atom)) {
            seen.add(atom);
            next.push(atom);
          }
        }
      }
      frontier = next;
    }
    return false;
  };
  const inThreeRing = (i: number) => nbrs[i].some((a) => nbrs[a.atom].some((b) => b.atom !== i && nbrs[b.atom].some((c) => c.atom === i)));
  // A bond from atom i as InChI sees it: only the narrow end of a wedge or hash gives a z.
  const bondFrom = (i: number, nb: Neighbour): { v: V3; kind: 'flat' | 'wedge' | '3d' | 'either' } => {
    const b = m.bonds[nb.bond];
    const d = sub(xyz(nb.atom), xyz(i));
    const pointed = b.a === i;
    const flat = nbrs[i].every((o) => Math.abs(m.atoms[o.atom].z - m.atoms[i].z) < MIN_BOND_LEN);
    // (InChI reads the stereo field whatever the bond order.)
    if (pointed && b.stereo === 4) return { v: d, kind: 'either' };
    if (!flat) return { v: d, kind: '3d' };
    if (pointed && (b.stereo === 1 || b.stereo === 6)) {
      const l = Math.hypot(d[0], d[1]);
      return { v: [d[0], d[1], b.stereo === 1 ? l : -l], kind: 'wedge' };
    }
    return { v: [d[0], d[1], 0], kind: 'flat' };
  };

  let ambiguous = false;
  let definedShift = 0;
  m.atoms.forEach((a, i) => {
    if (isH(i) || (a.radical && a.radical !== 1)) return;
    const heavy = nbrs[i].filter((n) => !isH(n.atom));
    const explicitH = nbrs[i].length - heavy.length;
    const size = centreSize(z[i], a.charge, heavy.map((n) => m.bonds[n.bond].order), hs[i] + explicitH, inThreeRing(i));
    if (!size || hs[i] + explicitH > 1) return;
    const bonds = nbrs[i].map((n) => bondFrom(i, n));
    let reading: Reading;
    if (bonds.some((b) => b.kind === 'either')) reading = { parity: 'unknown', ambiguous: false };
    else if (nbrs[i].length === 4 || (nbrs[i].length === 3 && (size === 3 || hs[i] === 1))) {
      const withZ = bonds.filter((b) => b.kind !== 'flat').length;
      reading = readCentre(bonds.map((b) => b.v), nbrs[i].length === 3, withZ, withZ > 0 && bonds.every((b) => b.kind !== '3d'));
    } else return;
    const defined = reading.parity === 'defined';
    // MinimalLib's InChI gets RDKit's configuration for a centre drawn flat (RDKit keeps no
    // wedges), and reads a centre in 3D from the coordinates as the InChI of the molblock does.
    const minimalLib = bonds.some((b) => b.kind === '3d') ? defined : tagged(i);
    if ((!reading.ambiguous && defined === minimalLib) || !stereogenicCentre(i)) return;
    if (reading.ambiguous && reading.parity !== 'unknown') ambiguous = true;
    if (defined !== minimalLib) definedShift += defined ? 1 : -1;
  });
  // MinimalLib's InChI reads double bonds from the coordinates as well, but without the wedges
  // (RDKit keeps none after reading a molblock), with RDKit's configuration where a bond is too
  // short to read, and with none where RDKit found the geometry unclear ("either").
  let definedBondShift = 0;
  m.bonds.forEach((b, k) => {
    if (b.order !== 2 || b.stereo === 3 || inSmallRing(b.a, b.b)) return;
    const ends = [b.a, b.b].map((end) => {
      const bonds = nbrs[end].map((n) => bondFrom(end, n));
      const drawn: Reading = bonds.some((x) => x.kind === 'either') ? { parity: 'unknown', ambiguous: false } : readBondEnd(bonds.map((x) => x.v));
      const flat = readBondEnd(bonds.map((x) => (x.kind === 'wedge' ? [x.v[0], x.v[1], 0] : x.v)));
      return { drawn, flat };
    });
    if (ends.some((r) => r.drawn.parity === 'none')) return;
    // Both ends read, and their planes within 60 degrees of each other.
    const read = (rs: Reading[]) => rs.every((r) => r.parity === 'defined') && normalsAgree(rs[0].normal!, rs[1].normal!);
    const defined = read(ends.map((r) => r.drawn));
    const fragile = defined && ends.some((r) => r.drawn.ambiguous);
    const minimalLib = bondStereo(k) !== 'either' &&
      (read(ends.map((r) => r.flat)) || ends.every((r) => r.flat.parity === 'defined' || (r.flat.short && taggedBond(k))));
    if ((!fragile && defined === minimalLib) || !stereogenicBond(k)) return;
    if (fragile) ambiguous = true;
    if (defined !== minimalLib) definedBondShift += defined ? 1 : -1;
  });
  return { ambiguous, definedShift, definedBondShift };
}

/**
 * The ChEMBL Structure Pipeline checker (chembl_structure_pipeline.checker.check_molblock;
 * Bento et al., J Cheminform 2020, 12:51): every problem found in a molblock as
 * [penalty, message], highest penalty first. Penalties and messages are the pipeline's:
 * 7 illegal input / InChI failure; 6 polymer, V3000, no atoms, 3D coordinates, all atoms at the
 * origin, six or more overlapping atoms, a radical other than NO/aminoxyl, InChI "Empty
 * structure" or "Accepted unusual valence(s)"; 5 illegal bond type or stereo flag, overlapping
 * atoms, crossed double bond in a ring, stereo disagreement between InChI, molblock and RDKit;
 * 2 the 3D flag on a flat drawing, several stereo bonds at one atom, a stereo bond in a ring or
 * to another stereocentre, other InChI warnings (checker-inchi.ts).
 */
import type { Mol, RDKit } from '../core/rdkit.ts';
import { inchiPair, inchiWarnings } from './checker-inchi.ts';
import { readStereo } from './checker-stereo.ts';
import { atomicNumber, neighbourLists, parseV2000, ringBonds, type Molfile } from './molfile.ts';
import { atomViews, RAW_PARSE } from './rdkit.ts';

export type Issue = [number, string];

const INCHI_PENALTY: Record<string, number> = { 'Accepted unusual valence(s)': 6, 'Empty structure': 6, 'Ambiguous stereo': 2 };

// Kept exactly as the pipeline writes it: only SRU is tied to an "M  STY" line, the other
// alternatives match anywhere in the text.
const POLYMER = /^M {2}STY.+(SRU)|(MON)|(COP)|(CRO)|(ANY)/m;
const V3000 = /^M {2}[vV]30/m;

function parseMol(rdkit: RDKit, text: string, details?: string): Mol | undefined {
  let mol: Mol | null = null;
  try {
    mol = details ? rdkit.get_mol(text, details) : rdkit.get_mol(text);
  } catch {
    mol = null;
  }
  if (mol?.is_valid()) return mol;
  mol?.delete();
  return undefined;
}

function drawingIssues(m: Molfile): Issue[] {
  const out: Issue[] = [];
  const n = m.atoms.length;
  const flagged = (i: number) => m.bonds[i].stereo !== 0;
  if (n < 1) out.push([6, 'number of atoms less than 1']);
  const has3D = m.atoms.some((a) => Math.abs(a.z) >= 0.0001);
  if (has3D) out.push([6, 'molecule has 3D coordinates']);
  if (!has3D && m.header[1].slice(20, 22) === '3D') out.push([2, 'molecule has the 3D flag set for a 2D conformer']);
  if (m.bonds.some((b) => b.order < 1 || b.order > 3)) out.push([5, 'molecule has a bond with an illegal type']);
  if (m.bonds.some((b) => b.order === 1 && b.stereo === 4)) out.push([5, 'molecule has a bond with an illegal stereo flag']);
  const begins = new Array<number>(n).fill(0);
  m.bonds.forEach((b, i) => {
    if (flagged(i)) begins[b.a] += 1;
  });
  if (begins.some((c) => c > 1)) out.push([2, 'molecule has an atom with multiple stereo bonds']);
  let overlaps = 0;
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < i; j++) {
      const a = m.atoms[i];
      const b = m.atoms[j];
      if (Math.hypot(a.x - b.x, a.y - b.y, a.z - b.z) < 0.0001) overlaps++;
    }
  }
  if (overlaps > 0) out.push([5, 'molecule has two (or more) atoms with exactly the same coordinates']);
  if (n > 1 && m.atoms.every((a) => Math.hypot(a.x, a.y, a.z) <= 0.0001)) out.push([6, 'all atoms have zero coordinates']);
  const inRing = ringBonds(m);
  if (m.bonds.some((b, i) => b.order === 2 && b.stereo === 3 && inRing[i])) out.push([5, 'molecule has a crossed bond in a ring']);
  if (m.bonds.some((b, i) => flagged(i) && b.stereo !== 3 && inRing[i])) out.push([2, 'molecule has a stereo bond in a ring']);
  if (m.bonds.some((b, i) => flagged(i) && begins[b.b] > 0)) out.push([2, 'molecule has an stereo bond to a stereocenter']);
  if (radicalIssue(m)) out.push([6, 'molecule has a radical that is not found in the known list']);
  if (overlaps >= 6) out.push([6, 'molecule has six (or more) atoms with exactly the same coordinates']);
  return out;
}

/** A radical other than nitric oxide (N=O) and aminoxyl (N-O). */
function radicalIssue(m: Molfile): boolean {
  const nbrs = neighbourLists(m);
  return m.atoms.some((a, i) => {
    if (!a.radical) return false;
    const electrons = a.radical === 2 ? 1 : 2;
    const z = atomicNumber(a);
    const only = nbrs[i].length === 1 ? nbrs[i][0] : undefined;
    if (z === 7) return !(electrons === 1 && only && atomicNumber(m.atoms[only.atom]) === 8 && m.bonds[only.bond].order === 2);
    if (z === 8) return !(electrons === 1 && only && atomicNumber(m.atoms[only.atom]) === 7 && m.bonds[only.bond].order === 1);
    return true;
  });
}

/**
 * `definedShift`: the centres the InChI of the molblock defines beyond those of MinimalLib's InChI,
 * which InChI computes from RDKit's chiral tags rather than from the drawing (readStereo).
 */
function stereoIssue(m: Molfile, standardInchi: string, chiralCount: number, definedShift: number): Issue | undefined {
  const layers = [...standardInchi.matchAll(/\/t([^/]*)/g)].map((x) => x[1]);
  const nInchi = (layers.length ? layers[layers.length - 1].split(',').filter((c) => !c.endsWith('?')).length : 0) + definedShift;
  const nMol = new Set(m.bonds.filter((b) => b.stereo === 1 || b.stereo === 6).map((b) => b.a)).size;
  const nRDKit = chiralCount;
  if (nInchi !== nMol && nInchi !== nRDKit && nRDKit !== nMol) return [5, 'Mol/Inchi/RDKit stereo mismatch'];
  if (nRDKit === nMol && nInchi !== nRDKit) return [5, 'RDKit_Mol/InChI stereo mismatch'];
  if (nMol === nInchi && nInchi !== nRDKit) return [2, 'InChi_Mol/RDKit stereo mismatch'];
  if (nInchi === nRDKit && nInchi !== nMol) return [5, 'InChi_RDKit/Mol stereo mismatch'];
  return undefined;
}

const byPenaltyThenText = (a: Issue, b: Issue) => b[0] - a[0] || (a[1] < b[1] ? 1 : a[1] > b[1] ? -1 : 0);

/** check_molblock: the issues of a molblock, sorted as the pipeline sorts them (empty: none). */
export function checkMolblock(rdkit: RDKit, molblock: string): Issue[] {
  const raw = parseMol(rdkit, molblock, RAW_PARSE);
  if (!raw) return [[7, 'Illegal input']];
  let table: Molfile;
  try {
    table = parseV2000(V3000.test(molblock) ? raw.get_v2Kmolblock(JSON.stringify({ kekulize: false })) : molblock);
  } finally {
    raw.delete();
  }
  const out: Issue[] = [];
  if (POLYMER.test(molblock)) out.push([6, 'polymer information in mol file']);
  if (V3000.test(molblock)) out.push([6, 'V3000 mol file']);
  out.push(...drawingIssues(table));

  // InChI and RDKit's stereo view come from RDKit's reading of the block (sanitised when possible).
  const mol = parseMol(rdkit, molblock, JSON.stringify({ removeHs: false })) ?? parseMol(rdkit, molblock, RAW_PARSE)!;
  try {
    const views = atomViews(mol);
    const hs = views.map((v) => v.hs);
    const pair = inchiPair(mol);
    let definedShift = 0;
    if (!pair.standard.startsWith('InChI=')) {
      if (table.atoms.length === 0) out.push([6, 'InChI: Empty structure']);
      else if (table.atoms.some((a) => atomicNumber(a) === 0)) out.push([7, 'InChI: Unknown element(s)']);
      else out.push([7, 'InChI: no InChI could be generated']);
    } else {
      const reading = readStereo(rdkit, mol, table, hs);
      definedShift = reading.definedShift;
      for (const w of inchiWarnings(table, { ...pair, hs, stereo: reading })) out.push([INCHI_PENALTY[w] ?? 2, `InChI: ${w}`]);
    }
    const stereo = stereoIssue(table, pair.standard, views.filter((v) => v.chiral).length, definedShift);
    if (stereo) out.push(stereo);
  } finally {
    mol.delete();
  }
  return out.sort(byPenaltyThenText);
}

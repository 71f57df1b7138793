/**
 * Bemis-Murcko framework (Bemis & Murcko, J. Med. Chem. 39, 2887-2893 (1996)) with RDKit's
 * conventions (MurckoScaffold.GetScaffoldForMol): ring atoms plus the linkers between
 * rings; side chains go, except atoms double-bonded to a ring or linker atom (C=O, C=N,
 * exocyclic C=C); an atom that loses a substituent gets hydrogens by valence and loses its
 * tetrahedral stereo. An acyclic molecule has no framework: "None", as the service answers.
 * One deliberate difference: a double bond keeps its E/Z label when the remaining ring or
 * linker atoms still define it; RDKit drops it whenever the atom its SMILES used as the
 * reference was a side chain, which depends on how the input was written.
 *
 * MinimalLib cannot delete atoms, so the framework is cut out of a V3000 molblock with 2D
 * coordinates (which carries double-bond and wedge stereo faithfully) and read back. That
 * route costs ~1.5 ms (coordinates, molblock writing and parsing); when the molecule came
 * from a plain SMILES and the framework keeps no double-bond stereo, the framework is cut out
 * of the molecule JSON instead (murcko-json.ts, which lists when the routes could differ),
 * giving the same SMILES in a fraction of the time (LOTUS demo set, one thread: 1.0 ms against
 * 2.5 ms per molecule on average, 999 of 1,000 frameworks identical, the other one right only
 * on this route).
 */
import type { Mol, RDKit } from '../core/rdkit.ts';
import { adjacency, readMolJson, type MolJson } from '../core/commonchem.ts';
import type { MolView } from '../core/mol-view.ts';
import { frameworkJson } from './murcko-json.ts';

/** Atom indices to keep, and the kept atoms that lose a neighbour. */
function frameworkAtoms(m: MolJson): { keep: boolean[]; trimmed: Set<number> } {
  const n = m.atoms.length;
  const nbrs = adjacency(m);
  // Ring atoms and linkers = what survives repeatedly pruning acyclic leaves.
  const core = new Array<boolean>(n).fill(true);
  const degree = nbrs.map((l) => l.length);
  const stack: number[] = [];
  for (let i = 0; i < n; i++) if (degree[i] <= 1) stack.push(i);
  while (stack.length) {
    const i = stack.pop()!;
    if (!core[i]) continue;
    core[i] = false;
    for (const { atom } of nbrs[i]) if (core[atom] && --degree[atom] <= 1) stack.push(atom);
  }
  const keep = core.slice();
  const trimmed = new Set<number>();
  for (let i = 0; i < n; i++) {
    if (core[i]) continue;
    for (const { atom, bond } of nbrs[i]) {
      if (!core[atom]) continue;
      if (m.bonds[bond].order === 2 && !m.aromaticBonds.has(bond)) keep[i] = true;
      else trimmed.add(atom);
    }
  }
  return { keep, trimmed };
}

/** Join V3000 continuation lines (a trailing "-" continues on the next "M  V30" line). */
function v3000Lines(molblock: string): string[] {
  const out: string[] = [];
  for (const line of molblock.split('\n')) {
    const prev = out.length - 1;
    if (prev >= 0 && out[prev].endsWith('-') && line.startsWith('M  V30 ')) out[prev] = out[prev].slice(0, -1) + line.slice(7);
    else out.push(line);
  }
  return out;
}

/**
 * Whether the framework keeps a tetrahedral centre in a bridged ring system (two SSSR rings
 * sharing three or more atoms: norbornane, adamantane, the cages of diterpenoid alkaloids). There
 * the molblock route's drawing can lose or invert centres, so the two routes may answer
 * differently; everywhere else they agree (100,172 plain SMILES of bench/data/search-100k.smi and
 * the demo set: 30 frameworks differ, every one bridged with a kept centre).
 */
export function bridgedStereo(m: MolJson, keep: boolean[]): boolean {
  if (!m.atoms.some((a, i) => keep[i] && (a.stereo === 'cw' || a.stereo === 'ccw'))) return false;
  const owner = new Map<number, number[]>();
  for (let r = 0; r < m.rings.length; r++) {
    for (const a of m.rings[r]) {
      const list = owner.get(a);
      if (list) list.push(r);
      else owner.set(a, [r]);
    }
  }
  const shared = new Map<number, number>();
  for (const rings of owner.values()) {
    for (let i = 0; i < rings.length; i++) {
      for (let j = i + 1; j < rings.length; j++) {
        const key = rings[i] * m.rings.length + rings[j];
        const n = (shared.get(key) ?? 0) + 1;
        if (n >= 3) return true;
        shared.set(key, n);
      }
    }
  }
  return false;
}

/**
 * @param view the molecule's view when the caller has one: its parsed JSON is reused, and a
 *   plain-SMILES molecule may take the JSON route.
 * @param molblockRouteAnswers the answer must be the molblock route's (the catalog's
 *   derivation, whose stored frameworks come from it): the JSON route is still taken for a plain
 *   SMILES, except where the two routes could differ (bridgedStereo).
 */
export function murckoFramework(rdkit: RDKit, mol: Mol, view?: MolView, molblockRouteAnswers = false): string {
  const m = view?.json ?? readMolJson(mol);
  const { keep, trimmed } = frameworkAtoms(m);
  if (!keep.some(Boolean)) return 'None';
  const jsonRoute = view?.plainSmiles && !(molblockRouteAnswers && bridgedStereo(m, keep));
  const json = jsonRoute ? frameworkJson(m, keep, trimmed) : undefined;
  return json === undefined ? viaMolblock(rdkit, mol, keep, trimmed) : smilesOf(rdkit, json);
}

/** Canonical SMILES of a framework written as molblock or JSON; "None" when RDKit rejects it. */
function smilesOf(rdkit: RDKit, text: string): string {
  const scaffold = rdkit.get_mol(text);
  try {
    if (!scaffold || !scaffold.is_valid()) return 'None';
    return scaffold.get_smiles();
  } finally {
    scaffold?.delete();
  }
}

function viaMolblock(rdkit: RDKit, mol: Mol, keep: boolean[], trimmed: Set<number>): string {
  const copy = rdkit.get_mol_copy(mol);
  let block: string;
  try {
    if (!copy) return 'None';
    copy.set_new_coords();
    block = copy.get_v3Kmolblock();
  } finally {
    copy?.delete();
  }
  const newIndex = new Map<number, number>();
  keep.forEach((k, i) => k && newIndex.set(i + 1, newIndex.size + 1));
  const out: string[] = [];
  let countsAt = -1;
  let bonds = 0;
  let section = '';
  for (const line of v3000Lines(block)) {
    if (line.startsWith('M  V30 BEGIN ')) section = line.slice(13).trim();
    const body = line.startsWith('M  V30 ') ? line.slice(7).trim().split(/\s+/) : [];
    const numbered = /^\d+$/.test(body[0] ?? '');
    if (section === 'ATOM' && numbered) {
      const idx = Number(body[0]);
      if (!newIndex.has(idx)) continue;
      let fields = body.slice(1);
      // RDKit neutralises an aromatic C+ that loses its substituent (pyrylium-type carbons).
      if (trimmed.has(idx - 1) && fields[0] === 'C') fields = fields.filter((f) => f !== 'CHG=1');
      out.push(`M  V30 ${newIndex.get(idx)} ${fields.join(' ')}`);
    } else if (section === 'BOND' && numbered) {
      const [, type, a, b, ...rest] = body;
      const ia = newIndex.get(Number(a));
      const ib = newIndex.get(Number(b));
      if (ia === undefined || ib === undefined) continue;
      // A wedge from an atom that lost a substituent would invent stereo RDKit clears.
      const props = trimmed.has(Number(a) - 1) ? rest.filter((f) => !/^CFG=[13]$/.test(f)) : rest;
      out.push(`M  V30 ${++bonds} ${type} ${ia} ${ib}${props.length ? ' ' + props.join(' ') : ''}`);
    } else if (section === 'COLLECTION') {
      // Enhanced-stereo groups refer to old atom numbers; the framework keeps plain stereo.
    } else if (line.startsWith('M  V30 COUNTS')) {
      countsAt = out.length;
      out.push('');
    } else {
      out.push(line);
    }
    if (line.startsWith('M  V30 END ')) section = '';
  }
  out[countsAt] = `M  V30 COUNTS ${newIndex.size} ${bonds} 0 0 0`;
  return smilesOf(rdkit, out.join('\n'));
}

/**
 * XYZ frames to structures, as the original service's `/convert/xyz` with `toolkit=rdkit` (CM 3.11):
 * tier 1 perceives bonds and bond orders with the molecule's charge (xyz-bonds.ts); when that
 * fails (an element xyz2mol does not know, such as a transition metal), tier 2 keeps the
 * connectivity with single bonds. Each frame's molecule keeps every atom of the file (hydrogens
 * as atoms) and its 3D coordinates, and is written by RDKit as Kekulé canonical SMILES, InChI,
 * InChIKey and a molblock titled with the comment line. docs/convert.md.
 */
import { AppError } from '../../errors.ts';
import type { Mol, RDKit } from '../core/rdkit.ts';
import { atomicNumber, BondOrderError, connectTheDots, determineBondOrders, elementSymbol, type XyzAtom } from './xyz-bonds.ts';

/** Most atoms in one frame (hydrogens included). */
export const MAX_XYZ_ATOMS = 1000;

export interface XyzFrameResult {
  title: string;
  canonicalsmiles: string;
  inchi: string;
  inchikey: string;
  molblock: string;
  method: 'bond_orders' | 'connectivity_only';
  bond_orders_perceived: boolean;
  warnings: string[];
}

/** Reads one frame (count, comment, atom rows) as RDKit's XYZ reader does; throws BondOrderError with the reason. */
export function parseXyzFrame(frame: string): { title: string; atoms: XyzAtom[] } {
  const lines = frame.replace(/\r\n?/g, '\n').split('\n');
  const count = Number(lines[0]?.trim());
  if (!Number.isInteger(count) || count < 0) throw new BondOrderError('Failed to parse XYZ block.');
  if (count === 0) throw new BondOrderError('XYZ block contains no atoms.');
  if (count > MAX_XYZ_ATOMS) throw new BondOrderError(`A frame may have at most ${MAX_XYZ_ATOMS} atoms (this one has ${count})`);
  const atoms: XyzAtom[] = [];
  for (let i = 0; i < count; i++) {
    const parts = (lines[i + 2] ?? '').trim().split(/\s+/);
    const z = atomicNumber(parts[0]);
    const [x, y, zc] = parts.slice(1, 4).map(Number);
    if (z === undefined || parts.length < 4 || ![x, y, zc].every(Number.isFinite)) {
      throw new BondOrderError(`Failed to parse XYZ block: line ${i + 3} is not an atom RDKit reads ('${(lines[i + 2] ?? '').trim().slice(0, 80)}')`);
    }
    atoms.push({ z, x, y, zc });
  }
  return { title: (lines[1] ?? '').trim(), atoms };
}

const f4 = (v: number) => v.toFixed(4).padStart(10);
const i3 = (v: number) => String(v).padStart(3);

/** A V2000 molblock of the perceived structure; every atom's valence is given so no hydrogen is added. */
function molblock(title: string, atoms: readonly XyzAtom[], bonds: readonly [number, number][], orders: readonly number[], charges: readonly number[], flat = false): string {
  const valence = atoms.map(() => 0);
  bonds.forEach(([i, j], k) => {
    valence[i] += orders[k];
    valence[j] += orders[k];
  });
  const out = [title.replace(/[\r\n]/g, ' ').slice(0, 80), `     natprod          ${flat ? '2D' : '3D'}`, '', `${i3(atoms.length)}${i3(bonds.length)}  0  0  0  0  0  0  0  0999 V2000`];
  atoms.forEach((a, i) => {
    const vvv = valence[i] === 0 ? 15 : valence[i];
    out.push(`${f4(a.x)}${f4(a.y)}${f4(flat ? 0 : a.zc)} ${elementSymbol(a.z).padEnd(3)} 0  0  0  0  0${i3(vvv)}  0  0  0  0  0  0`);
  });
  bonds.forEach(([i, j], k) => out.push(`${i3(i + 1)}${i3(j + 1)}${i3(orders[k])}  0`));
  const charged = charges.flatMap((c, i) => (c !== 0 ? [[i + 1, c]] : []));
  for (let k = 0; k < charged.length; k += 8) {
    const chunk = charged.slice(k, k + 8);
    out.push(`M  CHG${i3(chunk.length)}${chunk.map(([i, c]) => ` ${i3(i)} ${i3(c)}`).join('')}`);
  }
  out.push('M  END', '');
  return out.join('\n');
}

/**
 * SMILES, InChI, InChIKey and molblock of a perceived structure. `smilesFrom`: another text for the
 * SMILES (tier 2's flattened copy: RDKit's molblock reader takes stereo from 3D coordinates, which
 * the original's connectivity-only molecule never had).
 */
function serialize(rdkit: RDKit, text: string, sanitize: boolean, smilesFrom?: string): Omit<XyzFrameResult, 'title' | 'method' | 'bond_orders_perceived'> {
  let mol: Mol | null = null;
  try {
    mol = rdkit.get_mol(text, JSON.stringify({ removeHs: false, sanitize }));
  } catch (e) {
    // The size bounds of every RDKit call (too many heavy atoms) say why.
    if (e instanceof AppError && e.status === 422) throw new BondOrderError(String(e.detail));
    mol = null;
  }
  if (!mol || !mol.is_valid()) {
    mol?.delete();
    throw new BondOrderError('RDKit could not read the perceived structure');
  }
  const warnings: string[] = [];
  const attempt = (what: string, fn: (m: Mol) => string): string => {
    try {
      return fn(mol!) ?? '';
    } catch (e) {
      warnings.push(`${what} failed: ${(e as Error)?.message ?? e}`);
      return '';
    }
  };
  try {
    const canonicalsmiles = smilesFrom === undefined
      ? attempt('SMILES serialization', (m) => m.get_smiles(JSON.stringify({ doKekule: true })))
      : attempt('SMILES serialization', () => flatSmiles(rdkit, smilesFrom));
    const inchi = attempt('InChI computation', (m) => m.get_inchi());
    const inchikey = inchi ? attempt('InChIKey computation', () => rdkit.get_inchikey_for_inchi(inchi)) : '';
    const block = attempt('MOL block serialization', (m) => m.get_molblock());
    return { canonicalsmiles, inchi, inchikey, molblock: block, warnings };
  } finally {
    mol.delete();
  }
}

function flatSmiles(rdkit: RDKit, text: string): string {
  const mol = rdkit.get_mol(text, JSON.stringify({ removeHs: false, sanitize: false }));
  try {
    if (!mol?.is_valid()) throw new Error('RDKit could not read the structure');
    return mol.get_smiles(JSON.stringify({ doKekule: true }));
  } finally {
    mol?.delete();
  }
}

/** One frame through both tiers; throws BondOrderError when neither can read it. */
export function convertXyzFrame(rdkit: RDKit, frame: string, charge: number): XyzFrameResult {
  const { title, atoms } = parseXyzFrame(frame);
  const bonds = atoms.length > 1 ? connectTheDots(atoms) : [];
  const zs = atoms.map((a) => a.z);
  let tier1: string;
  try {
    const { orders, charges } = atoms.length > 1 ? determineBondOrders(zs, bonds, charge) : { orders: [], charges: [0] };
    const out = serialize(rdkit, molblock(title, atoms, bonds, orders, charges), true);
    return { title, ...out, method: 'bond_orders', bond_orders_perceived: true };
  } catch (e) {
    if (!(e instanceof BondOrderError)) throw e;
    tier1 = e.message;
  }
  try {
    const single = bonds.map(() => 1);
    const none = atoms.map(() => 0);
    const out = serialize(rdkit, molblock(title, atoms, bonds, single, none), false, molblock(title, atoms, bonds, single, none, true));
    out.warnings.unshift(`Bond-order perception failed (${tier1}); fell back to connectivity-only perception`);
    return { title, ...out, method: 'connectivity_only', bond_orders_perceived: false };
  } catch (e) {
    if (!(e instanceof BondOrderError)) throw e;
    throw new BondOrderError(`Bond perception failed (tier 1: ${tier1}; tier 2: ${e.message})`);
  }
}

export interface XyzAnswer {
  structures: ({ index: number; title: string; success: boolean; error: string | null } & Partial<Omit<XyzFrameResult, 'title'>>)[];
  sdf: string;
  summary: { total: number; successful: number; failed: number; bond_orders_count: number; connectivity_only_count: number };
}

/** Per-frame results (a failed frame does not fail the others), the SDF of the successful ones and counts; 422 when all fail. */
export function collectXyz(frames: readonly string[], perFrame: (frame: string) => XyzFrameResult): XyzAnswer {
  const structures: XyzAnswer['structures'] = [];
  let sdf = '';
  const summary = { total: frames.length, successful: 0, failed: 0, bond_orders_count: 0, connectivity_only_count: 0 };
  let firstError: string | undefined;
  frames.forEach((frame, index) => {
    let r: XyzFrameResult;
    try {
      r = perFrame(frame);
    } catch (e) {
      if (!(e instanceof BondOrderError) && !(e instanceof AppError && e.status === 422)) throw e;
      const error = e instanceof AppError ? String(e.detail) : e.message;
      firstError ??= error;
      summary.failed++;
      structures.push({ index, title: frame.split('\n')[1]?.trim() ?? '', success: false, error });
      return;
    }
    summary.successful++;
    if (r.method === 'bond_orders') summary.bond_orders_count++;
    else summary.connectivity_only_count++;
    if (r.molblock) sdf += `${r.molblock.trimEnd()}\n$$$$\n`;
    const { title, ...rest } = r;
    structures.push({ index, title, success: true, error: null, ...rest });
  });
  if (summary.successful === 0) throw new AppError(422, `All frames failed perception: ${firstError}`, 'invalid_input');
  return { structures, sdf, summary };
}

/**
 * Writes the atoms that survive sugar removal as a SMILES. MinimalLib has no atom deletion, so
 * we edit the V3000 molblock of the original molecule (2D coordinates and wedges from RDKit):
 * removed atoms go, and every single bond from a kept atom to a removed one is redirected to a
 * new hydrogen (or `*` when attachment points are marked) placed where the removed atom was.
 * Keeping that bond, its wedge and the geometry keeps the stereo of the kept atoms intact;
 * RDKit folds the hydrogens back into implicit ones when it reads the block.
 */
import type { Mol, RDKit } from '../core/rdkit.ts';

export interface AtomLine { idx: number; symbol: string; rest: string[] }
export interface BondLine { type: string; a1: number; a2: number; props: string[] }

export function parseV3000(block: string): { atoms: AtomLine[]; bonds: BondLine[] } {
  // V3000 continues a long line with a trailing '-' and an 'M  V30 ' prefix on the next one.
  const lines = block.replace(/-\r?\nM {2}V30 /g, '').split('\n');
  const atoms: AtomLine[] = [];
  const bonds: BondLine[] = [];
  let section = '';
  for (const raw of lines) {
    if (!raw.startsWith('M  V30 ')) continue;
    const body = raw.slice(7).trim();
    if (body.startsWith('BEGIN ')) { section = body.slice(6); continue; }
    if (body.startsWith('END ')) { section = ''; continue; }
    const f = body.split(/\s+/);
    if (section === 'ATOM') atoms.push({ idx: Number(f[0]), symbol: f[1], rest: f.slice(2) });
    else if (section === 'BOND') bonds.push({ type: f[1], a1: Number(f[2]), a2: Number(f[3]), props: f.slice(4) });
  }
  return { atoms, bonds };
}

/**
 * SMILES (RDKit canonical, Kekulé like the CDK flavour the original service wrote) of the kept
 * atoms; `''` when nothing is kept. `molblock`: the molecule's V3000 molblock when the caller
 * has it already (one removal after another on the same molecule: the drawing is made once).
 */
export function keptSmiles(rdkit: RDKit, mol: Mol, kept: Set<number>, markAttachPoints: boolean, molblock?: () => string): string {
  if (kept.size === 0) return '';
  const { atoms, bonds } = parseV3000(molblock ? molblock() : mol.get_v3Kmolblock());
  const newIndex = new Map<number, number>();
  const outAtoms: string[] = [];
  for (const a of atoms) {
    if (!kept.has(a.idx - 1)) continue;
    newIndex.set(a.idx - 1, outAtoms.length + 1);
    outAtoms.push(`${a.symbol} ${a.rest.join(' ')}`);
  }
  const outBonds: string[] = [];
  for (const b of bonds) {
    const k1 = kept.has(b.a1 - 1);
    const k2 = kept.has(b.a2 - 1);
    if (k1 && k2) {
      outBonds.push(`${b.type} ${newIndex.get(b.a1 - 1)} ${newIndex.get(b.a2 - 1)} ${b.props.join(' ')}`.trim());
      continue;
    }
    if (!k1 && !k2) continue;
    // A broken bond: keep it, pointing at a stand-in for the removed atom.
    if (!markAttachPoints && b.type !== '1') continue;
    const [keptAtom, gone] = k1 ? [b.a1, b.a2] : [b.a2, b.a1];
    const coords = atoms[gone - 1].rest.slice(0, 3).join(' ');
    outAtoms.push(`${markAttachPoints ? '*' : 'H'} ${coords} 0`);
    const stand = outAtoms.length;
    // A wedge belongs to the atom it starts from: keep it only when that atom stays.
    const props = k1 ? b.props : b.props.filter((p) => !p.startsWith('CFG='));
    const [x, y] = k1 ? [newIndex.get(keptAtom - 1), stand] : [stand, newIndex.get(keptAtom - 1)];
    outBonds.push(`${b.type} ${x} ${y} ${props.join(' ')}`.trim());
  }
  return v3000Smiles(rdkit, outAtoms, outBonds, 'the remaining structure');
}

/**
 * RDKit's canonical Kekulé SMILES of a V3000 connection table given as its atom and bond lines
 * (without their `M  V30 n` prefix); `what` names the structure in the error when RDKit refuses it.
 */
export function v3000Smiles(rdkit: RDKit, atoms: string[], bonds: string[], what: string): string {
  const block = [
    '', '     natprod sugars', '',
    '  0  0  0  0  0  0  0  0  0  0999 V3000',
    'M  V30 BEGIN CTAB',
    `M  V30 COUNTS ${atoms.length} ${bonds.length} 0 0 0`,
    'M  V30 BEGIN ATOM',
    ...atoms.map((a, i) => `M  V30 ${i + 1} ${a}`),
    'M  V30 END ATOM',
    ...(bonds.length ? ['M  V30 BEGIN BOND', ...bonds.map((b, i) => `M  V30 ${i + 1} ${b}`), 'M  V30 END BOND'] : []),
    'M  V30 END CTAB',
    'M  END',
  ].join('\n');
  let out: Mol | null = null;
  try {
    out = rdkit.get_mol(block, JSON.stringify({ removeHs: true }));
    if (!out || !out.is_valid()) throw new Error(`${what} could not be rebuilt`);
    return out.get_smiles(JSON.stringify({ doKekule: true }));
  } finally {
    out?.delete();
  }
}

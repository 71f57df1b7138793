/**
 * SMILES of one fragment of a post-processed sugar part (postprocess.ts), written like keptSmiles
 * (write.ts): the input's V3000 atom and bond lines (2D coordinates, wedges) for the fragment's
 * atoms and bonds, and for every input bond of a fragment atom that the fragment does not hold a
 * hydrogen (or `*` with markAttachPoints) where the missing neighbour was. A copied oxygen takes
 * the lines of the oxygen it copies, so stereo at its carbon is kept.
 */
import type { Mol, RDKit } from '../core/rdkit.ts';
import type { Part } from './postprocess.ts';
import { parseV3000, v3000Smiles } from './write.ts';

export function partSmiles(rdkit: RDKit, mol: Mol, part: Part, fragment: number[], markAttachPoints: boolean): string {
  const { atoms, bonds } = parseV3000(mol.get_v3Kmolblock());
  // Attachment atoms of the part are written as stand-ins below, from the bonds they replace.
  const members = fragment.filter((a) => part.atoms[a].z !== 0);
  if (members.length === 0) return '';
  const line = new Map<number, number>();
  const outAtoms: string[] = [];
  for (const a of members) {
    const src = atoms[part.atoms[a].orig];
    line.set(a, outAtoms.length + 1);
    outAtoms.push(`${src.symbol} ${src.rest.join(' ')}`);
  }
  const outBonds: string[] = [];
  const covered = new Map<number, Set<number>>(members.map((a) => [a, new Set<number>()]));
  for (const b of part.bonds) {
    if (!b.alive || b.orig < 0 || !line.has(b.a) || !line.has(b.b)) continue;
    const src = bonds[b.orig];
    // Keep the input line's direction (a wedge starts at its first atom).
    const [x, y] = part.atoms[b.a].orig === src.a1 - 1 ? [b.a, b.b] : [b.b, b.a];
    outBonds.push(`${src.type} ${line.get(x)} ${line.get(y)} ${src.props.join(' ')}`.trim());
    covered.get(b.a)!.add(b.orig);
    covered.get(b.b)!.add(b.orig);
  }
  for (const a of members) {
    const orig = part.atoms[a].orig;
    bonds.forEach((src, bi) => {
      if (src.a1 - 1 !== orig && src.a2 - 1 !== orig) return;
      if (covered.get(a)!.has(bi)) return;
      if (!markAttachPoints && src.type !== '1') return;
      const starts = src.a1 - 1 === orig;
      const gone = starts ? src.a2 : src.a1;
      outAtoms.push(`${markAttachPoints ? '*' : 'H'} ${atoms[gone - 1].rest.slice(0, 3).join(' ')} 0`);
      const stand = outAtoms.length;
      const props = starts ? src.props : src.props.filter((p) => !p.startsWith('CFG='));
      const [x, y] = starts ? [line.get(a), stand] : [stand, line.get(a)];
      outBonds.push(`${src.type} ${x} ${y} ${props.join(' ')}`.trim());
    });
  }
  return v3000Smiles(rdkit, outAtoms, outBonds, 'a sugar moiety');
}

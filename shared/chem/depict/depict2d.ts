/**
 * 2D depiction as SVG with RDKit's drawer: Kekulé bonds, optional rotation, CIP labels, a
 * black-and-white palette, and the first match of a SMARTS highlighted (atoms and the bonds
 * between them), as the original service's rdkit path draws it.
 */
import { AppError } from '../../errors.ts';
import { withQuery, type Mol, type RDKit } from '../core/rdkit.ts';
import { ensure2D } from '../convert/convert.ts';

export interface DepictOptions {
  width: number;
  height: number;
  rotate: number;
  cip: boolean;
  unicolor: boolean;
  /** SMARTS; '' for none. */
  highlight: string;
}

const BLACK: Record<string, number[]> = Object.fromEntries(Array.from({ length: 119 }, (_, z) => [String(z), [0, 0, 0]]));

function firstMatch(rdkit: RDKit, mol: Mol, smarts: string): { atoms: number[]; bonds: number[] } {
  const found = withQuery(rdkit, smarts, (q) => JSON.parse(mol.get_substruct_match(q)) as { atoms?: number[]; bonds?: number[] });
  if (found === undefined) throw new AppError(422, `Invalid SMARTS for highlight: ${smarts}`, 'invalid_input');
  return { atoms: found.atoms ?? [], bonds: found.bonds ?? [] };
}

export function depict2D(rdkit: RDKit, mol: Mol, o: DepictOptions): string {
  ensure2D(mol);
  const hl = o.highlight.trim() ? firstMatch(rdkit, mol, o.highlight.trim()) : { atoms: [], bonds: [] };
  const details: Record<string, unknown> = {
    width: o.width,
    height: o.height,
    kekulize: true,
    ...(o.rotate ? { rotate: o.rotate } : {}),
    ...(o.cip ? { addStereoAnnotation: true } : {}),
    ...(o.unicolor ? { atomColourPalette: BLACK } : {}),
    ...(hl.atoms.length ? { atoms: hl.atoms, bonds: hl.bonds } : {}),
  };
  return mol.get_svg_with_highlights(JSON.stringify(details));
}

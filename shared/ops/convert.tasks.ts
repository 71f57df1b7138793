/** Worker tasks of the conversion and 2D-depiction family; see convert.ts for the registry entries. */
import { AppError } from '../errors.ts';
import { withMol } from '../chem/core/rdkit.ts';
import {
  canonicalKekule, cxsmiles, formats, inchi, inchikey, molblock2D, resolveRepresentation, toCanonicalSmiles,
} from '../chem/convert/convert.ts';
import { depict2D, type DepictOptions } from '../chem/depict/depict2d.ts';
import { svgToPng, type PngOptions } from '../chem/depict/png.ts';
import { MAX_PNG_SCALE } from '../png-limits.ts';
import { selfiesToSmiles } from './selfies.tasks.ts';
import { z } from 'zod';
import { internalTask, internalTasks } from './task-args.ts';
import type { MediaResult, OpTasks, TaskTable } from './types.ts';
import type { convertOps } from './convert.ts';

export const convertTasks = {
  generate_2d_coordinates: (a, { rdkit }) => withMol(rdkit, a.smiles, molblock2D),
  generate_canonical_smiles: (a, { rdkit }) => withMol(rdkit, a.smiles, canonicalKekule),
  generate_cxsmiles: (a, { rdkit }) => withMol(rdkit, a.smiles, cxsmiles),
  generate_inchi: (a, { rdkit }) => withMol(rdkit, a.smiles, inchi),
  generate_inchikey: (a, { rdkit }) => withMol(rdkit, a.smiles, (m) => inchikey(rdkit, m)),
  generate_formats: (a, { rdkit }) => withMol(rdkit, a.smiles, (m) => formats(rdkit, m)),
  smiles_to_smarts: (a, { rdkit }) => withMol(rdkit, a.smiles, (m) => m.get_smarts()),

  generate_2d_depiction: (a, { rdkit }): string | Promise<MediaResult> => {
    const opts: DepictOptions = { width: a.width, height: a.height, rotate: a.rotate, cip: a.CIP, unicolor: a.unicolor, highlight: a.highlight };
    const svg = withMol(rdkit, a.smiles, (m) => depict2D(rdkit, m, opts));
    return a.format === 'png' ? pngResult(svg, { scale: a.scale }) : svg;
  },
} satisfies OpTasks<typeof convertOps>;

/** A PNG rendered from an SVG, as a result: base64, so that it travels as JSON (threads, BullMQ). */
async function pngResult(svg: string, opts: PngOptions): Promise<MediaResult> {
  return { mediaType: 'image/png', body: Buffer.from(await svgToPng(svg, opts)).toString('base64') };
}

/** Tasks submitted by the api side: generate_smiles (api/chem/handlers/convert.ts, api/names/resolve.ts), svg_to_png (api/mcp/tools.ts). */
export const convertInternalTasks = internalTasks({
  generate_smiles: internalTask(
    z.object({
      input_text: z.string().min(1).max(100_000),
      representation: z.enum(['auto', 'iupac', 'smiles', 'cxsmiles', 'molblock', 'selfies']).default('auto'),
    }),
    (a, { rdkit }): string | null => {
      // Names are resolved api side (api/chem/handlers/convert.ts: OPSIN, catalog, external database).
      if (a.representation === 'iupac') throw new AppError(422, 'Chemical names are read by the api handler of generate_smiles, not by this task', 'invalid_input');
      const kind = resolveRepresentation(a.input_text, a.representation);
      if (kind !== 'selfies') return toCanonicalSmiles(rdkit, a.input_text, kind);
      const decoded = selfiesToSmiles(a.input_text.trim());
      // representation=selfies named: the decoder's own string, as the original answers it (read by
      // RDKit first, so an unreadable one is still a 422); auto-detected: RDKit canonical SMILES.
      if (decoded === null) return null;
      return withMol(rdkit, decoded, (m) => (a.representation === 'selfies' ? decoded : m.get_smiles()));
    },
  ),
  /**
   * The PNG of an operation's SVG answer, for MCP's image content (api/mcp/tools.ts): rendered at
   * the SVG's size times `scale`, shrunk to the PNG size limit when larger (`fit`).
   */
  svg_to_png: internalTask(
    z.object({
      svg: z.string().min(1).max(20_000_000),
      scale: z.number().min(0.25).max(MAX_PNG_SCALE).default(1),
      fit: z.boolean().default(true),
    }),
    (a): Promise<MediaResult> => pngResult(a.svg, { scale: a.scale, fit: a.fit }),
  ),
}) satisfies TaskTable;

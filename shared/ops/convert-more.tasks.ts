/** Worker tasks of the CM 3.11 conversion endpoints; see convert-more.ts for the registry entries. */
import { AppError } from '../errors.ts';
import { withMol, type Mol, type RDKit } from '../chem/core/rdkit.ts';
import { canonicalKekule, cxsmiles, inchi, inchikey, molblock2D } from '../chem/convert/convert.ts';
import { cleanMolblock, detectStructureFormat, splitXyzFrames, STRUCTURE_FORMATS, type StructureFormat } from '../chem/convert/detect.ts';
import { collectXyz, convertXyzFrame, type XyzAnswer } from '../chem/convert/xyz.ts';
import { BondOrderError } from '../chem/convert/xyz-bonds.ts';
import { encodeSelfies } from '../chem/selfies/selfies.ts';
import { selfiesToSmiles } from './selfies.tasks.ts';
import { BATCH_ARGS, BATCH_OUTPUT_FORMATS, MAX_BATCH_INPUTS, MAX_XYZ_BYTES, MAX_XYZ_FRAMES, type convertMoreOps } from './convert-more.ts';
import type { OpTasks, TaskTable } from './types.ts';
import { z } from 'zod';
import { internalTask, internalTasks } from './task-args.ts';

/** Whether RDKit reads a text as SMILES (for format detection); nothing thrown. */
export function readsAsSmiles(rdkit: RDKit, text: string): boolean {
  if (text.includes('\n') || text.length > 100_000) return false;
  let mol: Mol | null = null;
  try {
    mol = rdkit.get_mol(text);
    return !!mol && mol.is_valid() && mol.get_num_atoms() > 0;
  } catch {
    return false;
  } finally {
    mol?.delete();
  }
}

/** The XYZ frames of a request body, with the original's whole-request errors. */
export function xyzFrames(data: string): string[] {
  if (!data || data.trim() === '') throw new AppError(400, 'Empty XYZ block provided', 'invalid_input');
  if (Buffer.byteLength(data, 'utf8') > MAX_XYZ_BYTES) throw new AppError(413, `XYZ payload exceeds ${MAX_XYZ_BYTES / 1_048_576} MB limit`, 'too_large');
  const frames = splitXyzFrames(data);
  if (frames.length === 0) throw new AppError(422, 'Invalid XYZ block (no frames detected)', 'invalid_input');
  if (frames.length > MAX_XYZ_FRAMES) throw new AppError(413, `Frame count exceeds limit (${MAX_XYZ_FRAMES}); this block has ${frames.length}`, 'too_large');
  return frames;
}

/** An input only the api reads (InChI: Open Babel; a name: the name resolvers); the batch's handler resolves it. */
class NeedsApi extends Error {
  constructor(readonly needs: 'inchi' | 'iupac', readonly text: string) {
    super(`${needs} input is read by the api`);
  }
}

/** A batch input as a structure RDKit reads (SMILES, or a molblock keeping explicit atoms). */
function inputStructure(rdkit: RDKit, value: string, format: StructureFormat): string {
  switch (format) {
    case 'smiles':
      return value;
    case 'selfies': {
      const smiles = selfiesToSmiles(value.trim());
      if (!smiles) throw new Error(`Failed to decode SELFIES '${value}' to SMILES`);
      return smiles;
    }
    case 'molblock':
      return withMol(rdkit, cleanMolblock(value), (m) => m.get_smiles(), 'molblock');
    case 'xyz': {
      const [frame] = splitXyzFrames(value);
      if (!frame) throw new Error('Failed to parse XYZ');
      const smiles = convertXyzFrame(rdkit, frame, 0).canonicalsmiles;
      return withMol(rdkit, smiles, (m) => m.get_smiles());
    }
    case 'inchi':
    case 'iupac':
      throw new NeedsApi(format, value.trim());
  }
}

function output(rdkit: RDKit, smiles: string, format: string): string {
  const on = <T>(fn: (m: Mol) => T) => withMol(rdkit, smiles, fn);
  switch (format) {
    case 'smiles':
      return smiles;
    case 'canonicalsmiles':
      return on(canonicalKekule);
    case 'inchi':
      return String(on(inchi));
    case 'inchikey':
      return String(on((m) => inchikey(rdkit, m)));
    case 'selfies':
      return encodeSelfies(smiles);
    case 'cxsmiles':
      return on(cxsmiles);
    case 'smarts':
      return on((m) => m.get_smarts());
    case 'mol2d':
      return on(molblock2D);
    case 'mol3d':
      throw new Error('3D coordinates generation not supported by toolkit: rdkit in the batch conversion (use /convert/mol3D)');
    default:
      throw new Error(`Unsupported output format: ${format}`);
  }
}

export interface BatchResult { input: { value: string; input_format: string }; output: string; success: boolean; error: string }
export interface BatchAnswer {
  results: BatchResult[];
  summary: { total: number; successful: number; failed: number };
  /** Inputs the api reads (InChI, names), by index; their results above are provisional failures. */
  pending: { index: number; needs: 'inchi' | 'iupac'; text: string }[];
}

const message = (e: unknown) => (e instanceof AppError ? (typeof e.detail === 'string' ? e.detail : JSON.stringify(e.detail)) : (e as Error)?.message ?? String(e));

export const convertMoreTasks = {
  detect_format: (a, { rdkit }) => {
    const { format, confidence } = detectStructureFormat(a.input, (t) => readsAsSmiles(rdkit, t));
    return { detected_format: format, confidence };
  },

  molblock_to_smiles: (a, { rdkit }) => {
    // The first record; leading lines kept (a V2000 header may start with an empty title line).
    const block = cleanMolblock(a.data);
    if (!block || block.trim() === '') throw new AppError(400, 'Empty MOL block provided', 'invalid_input');
    if (!block.includes('\n')) throw new AppError(422, 'Failed to parse MOL block with RDKit: a MOL block has several lines ending with M  END', 'invalid_input');
    return withMol(rdkit, block, canonicalKekule, 'MOL block');
  },

  xyz_to_formats: (a, { rdkit }): XyzAnswer => {
    if (a.use_huckel) throw new AppError(422, 'use_huckel=true (extended Hueckel bond perception, YAeHMOP) is not offered here; leave it false', 'invalid_input');
    return collectXyz(xyzFrames(a.data), (frame) => convertXyzFrame(rdkit, frame, a.charge));
  },

  // Routed to Open Babel (shared/toolkits/routes.ts); a pool without toolkits answers this.
  cdx_to_mol: () => {
    throw new AppError(422, 'Reading ChemDraw files needs Open Babel (toolkit=openbabel), which this process does not run', 'toolkit_unavailable');
  },

} satisfies OpTasks<typeof convertMoreOps>;

/**
 * What `auto_detect=true` resolves a structure argument to (api/chem/auto-detect.ts): SMILES for
 * SMILES, SELFIES, molblocks and XYZ (explicit hydrogen atoms of a molblock or XYZ kept as atoms,
 * as the original reads those natively); InChI and names are handed back to the api, which asks
 * Open Babel (`inchi_to_smiles`) or its name resolvers.
 */
export type ResolvedInput = { smiles: string; format: StructureFormat } | { needs: 'inchi' | 'iupac'; text: string };

const keepHs = (rdkit: RDKit, text: string, what: string) =>
  withMol(rdkit, text, (m) => m.get_smiles(), what);

export const convertMoreInternalTasks = internalTasks({
  /**
   * The batch conversion (api/chem/handlers/convert-more.ts calls it): every input the thread can
   * read is converted; InChI and name inputs come back in `pending` (with a provisional failed
   * result) for the handler to resolve and send again as SMILES.
   */
  batch_convert: internalTask(BATCH_ARGS, (a, { rdkit }): BatchAnswer => {
    if (a.inputs.length > MAX_BATCH_INPUTS) {
      throw new AppError(413, `A batch holds at most ${MAX_BATCH_INPUTS} inputs; this one has ${a.inputs.length}`, 'too_large');
    }
    const out = (BATCH_OUTPUT_FORMATS as readonly string[]).includes(a.output_format.toLowerCase()) ? a.output_format.toLowerCase() : a.output_format;
    const pending: BatchAnswer['pending'] = [];
    const results = a.inputs.map((item, index) => {
      const value = item.value ?? '';
      let format = item.input_format ?? '';
      try {
        if (!value) throw new Error('Missing required field: value');
        if (!format) format = detectStructureFormat(value, (t) => readsAsSmiles(rdkit, t)).format;
        const fmt = format.trim().toLowerCase();
        if (!(STRUCTURE_FORMATS as readonly string[]).includes(fmt)) throw new Error(`Unsupported input format: ${format}`);
        const smiles = inputStructure(rdkit, value, fmt as StructureFormat);
        return { input: { value, input_format: format }, output: output(rdkit, smiles, out), success: true, error: '' };
      } catch (e) {
        if (!(e instanceof Error) || (e instanceof AppError && e.status >= 500)) throw e;
        if (e instanceof NeedsApi) pending.push({ index, needs: e.needs, text: e.text });
        const why = e instanceof BondOrderError ? `Failed to parse XYZ: ${e.message}` : message(e);
        return { input: { value, input_format: format }, output: '', success: false, error: why };
      }
    });
    const successful = results.filter((r) => r.success).length;
    return { results, summary: { total: a.inputs.length, successful, failed: a.inputs.length - successful }, pending };
  }),
  resolve_structure_input: internalTask(
    z.object({ input: z.string().min(1).max(100_000) }),
    (a, { rdkit }): ResolvedInput => {
      const { format } = detectStructureFormat(a.input, (t) => readsAsSmiles(rdkit, t));
      switch (format) {
        case 'smiles':
          return { smiles: a.input, format };
        case 'inchi':
        case 'iupac':
          return { needs: format, text: a.input.trim() };
        case 'selfies':
          return { smiles: inputStructure(rdkit, a.input, 'selfies'), format };
        case 'molblock':
          return { smiles: withExplicitHs(rdkit, cleanMolblock(a.input), keepHs), format };
        case 'xyz': {
          const [frame] = splitXyzFrames(a.input);
          const r = convertXyzFrame(rdkit, frame, 0);
          return { smiles: withExplicitHs(rdkit, r.molblock, keepHs), format };
        }
      }
    },
  ),
  // Routed to Open Babel's sidecar (shared/toolkits/convert-routes.ts); a pool without toolkits answers this.
  inchi_to_smiles: internalTask(
    z.object({ inchi: z.string().min(1).max(100_000), toolkit: z.literal('openbabel').default('openbabel') }),
    (): string => {
      throw new AppError(422, 'Reading InChI needs Open Babel (python3-openbabel), which this process does not run: RDKit\'s WebAssembly build has no InChI reader', 'toolkit_unavailable');
    },
  ),
}) satisfies TaskTable;

/** A molblock's SMILES with its hydrogen atoms kept (RDKit's reader otherwise folds them into implicit counts). */
function withExplicitHs(rdkit: RDKit, block: string, fallback: (r: RDKit, t: string, w: string) => string): string {
  let mol: Mol | null = null;
  try {
    mol = rdkit.get_mol(block, JSON.stringify({ removeHs: false }));
    if (mol?.is_valid() && mol.get_num_atoms() > 0) return mol.get_smiles();
  } catch {
    // read below with the usual checks and errors
  } finally {
    mol?.delete();
  }
  return fallback(rdkit, block, 'molblock');
}

/**
 * The conversion endpoints CM 3.11 added (docs/convert.md): format detection, batch conversion,
 * MOL/SDF block to SMILES, XYZ frames to structures, ChemDraw CDX to MOL. Registry entries only
 * (contract: metadata, zod, examples); tasks in convert-more.tasks.ts, Open Babel's part in
 * shared/toolkits (routes.ts).
 */
import { z } from 'zod';
import { defineOp } from './types.ts';
import { bool, int, toolkit } from './params.ts';
import { ACETONE_MOLFILE, NATIVE_RDKIT } from './examples.ts';

const base = { tag: 'convert', mode: 'quick' as const };
const ORIGINAL_TESTS = "the original service's tests (CM 3.11, tests/test_converters.py, tests/test_xyz_to_mol.py)";

/** Most inputs in one batch conversion. */
export const MAX_BATCH_INPUTS = 100;
/** Most XYZ frames in one call, and most bytes of the XYZ text (the original's caps). */
export const MAX_XYZ_FRAMES = 50;
export const MAX_XYZ_BYTES = 5 * 1024 * 1024;
/** Largest CDX upload (the original's cap). */
export const MAX_CDX_BYTES = 10 * 1024 * 1024;

export const BATCH_OUTPUT_FORMATS = ['smiles', 'canonicalsmiles', 'inchi', 'inchikey', 'selfies', 'cxsmiles', 'smarts', 'mol2d', 'mol3d'] as const;

/** test/fixtures/convert311/ketcher.cdx (naphthalene; the original's tests/ketcher.cdx), base64. */
const KETCHER_CDX =
  'VmpDRDAxMDAEAwIBAAAAAAAAAAAAAAAAAAAAAAUIBAAAAB4AGggCAAMAGwgCAAQAAAEkAAAAAgACAOn9BQBBcmlhbAMA6f0PAFRpbWVzIE5ldyBSb21hbgADMgAIAP///////wAAAAAAAP//AAAAAP////8AAAAA//8AAAAA/////wAAAAD/////AAD//wGAAAAAABAIAgABAA8IAgABAAQCEAAIlqMApItSAb9/ZwCUeLoBA4AEAAAABIAFAAAAAAIIANMADwAAAAAAAAAEgAYAAAAAAggAGf0OALjoMwAAAASABwAAAAACCAAAAAAA7gAaAAAABIAIAAAAAAIIAFcELQC46DMAAAAEgAkAAAAAAggAziYtAAAAAAAAAASACgAAAAACCACCADwAtBEaAAAABIALAAAAAAIIAJIJAAAM2E0AAAAEgAwAAAAAAggAJgwPAAXcZwAAAASADQAAAAACCABIFjwAUgdOAAAABIAOAAAAAAIIAL7sLADw7GcAAAAFgA8AAAAEBgQABwAAAAUGBAAFAAAAAAYCAAIAAAAFgBAAAAAEBgQABQAAAAUGBAAJAAAAAAAFgBEAAAAEBgQACQAAAAUGBAAKAAAAAAYCAAIAAAAFgBIAAAAEBgQACgAAAAUGBAAIAAAAAAAFgBMAAAAEBgQACAAAAAUGBAAGAAAAAAYCAAIAAAAFgBQAAAAEBgQABgAAAAUGBAAHAAAAAAAFgBUAAAAEBgQACAAAAAUGBAANAAAAAAAFgBYAAAAEBgQADQAAAAUGBAAOAAAAAAYCAAIAAAAFgBcAAAAEBgQADgAAAAUGBAAMAAAAAAAFgBgAAAAEBgQADAAAAAUGBAALAAAAAAYCAAIAAAAFgBkAAAAEBgQACwAAAAUGBAAGAAAAAAAAAAAAAAAAAA==';

/** The batch conversion's arguments (also its internal task's payload, convert-more.tasks.ts). */
export const BATCH_ARGS = z.object({
  inputs: z.array(z.object({
    value: z.string().max(100_000).default(''),
    input_format: z.string().max(100).nullable().optional(),
  })).default([]).describe('The structures to convert'),
  output_format: z.string().max(100).default('smiles').describe(`Format to convert to (${BATCH_OUTPUT_FORMATS.join(', ')})`),
  toolkit: toolkit(['rdkit'] as const),
});

const WATER_XYZ = '3\nwater\nO    0.0000    0.0000    0.0000\nH    0.7572    0.5860    0.0000\nH   -0.7572    0.5860    0.0000\n';

const xyzStructure = z.strictObject({
  index: z.int().min(0),
  title: z.string(),
  success: z.boolean(),
  error: z.string().nullable(),
  canonicalsmiles: z.string().optional(),
  inchi: z.string().optional(),
  inchikey: z.string().optional(),
  molblock: z.string().optional(),
  method: z.enum(['bond_orders', 'connectivity_only']).optional(),
  bond_orders_perceived: z.boolean().optional(),
  warnings: z.array(z.string()).optional(),
});

export const convertMoreOps = [
  defineOp({
    ...base,
    method: 'GET',
    name: 'detect_format_convert_detect_format_get',
    path: '/convert/detect-format',
    summary: 'Auto-detect the format of a chemical structure string',
    description:
      'Answers `{detected_format, confidence}` as the original detects it, in this order: InChI (`InChI=` prefix, high), ' +
      'SELFIES (bracket tokens only, high), molblock (`M  END` or a counts line, high), XYZ (at least one valid frame, high), ' +
      'SMILES (RDKit reads it, medium), else an IUPAC name (low). An empty input is a 422.',
    args: z.object({
      input: z.string().max(5000).describe('Chemical structure string to inspect (SMILES, InChI, molblock, etc.)'),
    }),
    output: 'application/json',
    answer: z.strictObject({
      detected_format: z.enum(['smiles', 'inchi', 'selfies', 'iupac', 'molblock', 'xyz']),
      confidence: z.enum(['high', 'medium', 'low']),
    }),
    task: 'detect_format',
    examples: [{
      query: { input: 'InChI=1S/C2H6O/c1-2-3/h3H,2H2,1H3' },
      expected: { value: { detected_format: 'inchi', confidence: 'high' }, source: `${ORIGINAL_TESTS}: test_detect_format_inchi` },
    }],
  }),
  defineOp({
    ...base,
    method: 'POST',
    name: 'molblock_to_smiles_convert_molblock_post',
    path: '/convert/molblock',
    summary: 'Convert MOL/SDF block to SMILES',
    description:
      'The first molecule of a MOL block or SDF text (body, `text/plain`; everything from `$$$$` on is dropped) as RDKit ' +
      'Kekulé canonical isomeric SMILES (a JSON string). An empty block is a 400, one RDKit cannot read a 422. The ' +
      "original's default `toolkit=cdk` needs CDK's InChI module, which Debian's CDK lacks (docs/toolkits.md): RDKit answers.",
    args: z.object({
      data: z.string().max(1_000_000).describe('MOL or SDF block of the molecule'),
      toolkit: toolkit(['rdkit'] as const),
    }),
    body: { kind: 'text', field: 'data' },
    output: 'application/json',
    answer: z.string().describe('Kekulé canonical isomeric SMILES'),
    task: 'molblock_to_smiles',
    examples: [{
      query: {},
      text: ACETONE_MOLFILE,
      expected: { value: 'CC(C)=O', source: `${NATIVE_RDKIT}: MolToSmiles(MolFromMolBlock(acetone), kekuleSmiles=True)` },
    }],
  }),
  defineOp({
    ...base,
    method: 'POST',
    name: 'xyz_to_formats_convert_xyz_post',
    path: '/convert/xyz',
    summary: 'Convert one or more XYZ frames to SMILES, InChI, InChIKey, MOL, and SDF',
    description:
      'Plain-text XYZ (body): one frame (atom count, comment, `element x y z` rows) or several concatenated; CRLF or LF. ' +
      'Each frame is perceived on its own: `{structures: [{index, title, success, error, canonicalsmiles, inchi, inchikey, ' +
      'molblock, method, bond_orders_perceived, warnings}], sdf, summary: {total, successful, failed, bond_orders_count, ' +
      'connectivity_only_count}}`. `toolkit=rdkit`: natprod\'s port of RDKit\'s DetermineBonds (xyz2mol) with the molecule\'s ' +
      '`charge`, falling back to connectivity only (single bonds) for elements it has no valences for (transition metals); ' +
      '`toolkit=openbabel`: Open Babel\'s distance-based perception, charge-unaware. A failed frame does not fail the ' +
      `others; all failing is a 422. Empty body 400; over ${MAX_XYZ_FRAMES} frames or 5 MB 413. docs/convert.md.`,
    args: z.object({
      data: z.string().describe('Plain-text XYZ coordinates, one or more frames'),
      charge: int(0, -10, 10, 'Net molecular charge applied to every frame (RDKit only)'),
      use_huckel: bool(false, 'Extended Hueckel bond perception: not offered here (422 when true)'),
      toolkit: toolkit(['rdkit', 'openbabel'] as const),
    }),
    // The original's 5 MB, and room for a JSON envelope: over it the task answers 413 naming the limit.
    body: { kind: 'text', field: 'data', maxBytes: MAX_XYZ_BYTES + 65_536 },
    output: 'application/json',
    answer: z.strictObject({
      structures: z.array(xyzStructure),
      sdf: z.string(),
      summary: z.strictObject({
        total: z.int().min(0), successful: z.int().min(0), failed: z.int().min(0), bond_orders_count: z.int().min(0), connectivity_only_count: z.int().min(0),
      }),
    }),
    task: 'xyz_to_formats',
    examples: [{
      query: {},
      text: WATER_XYZ,
      expected: {
        value: {
          $fields: {
            structures: [{ $fields: { index: 0, title: 'water', success: true, method: 'bond_orders', bond_orders_perceived: true, inchikey: 'XLYOFNOQVPJJNP-UHFFFAOYSA-N' } }],
            summary: { total: 1, successful: 1, failed: 0, bond_orders_count: 1, connectivity_only_count: 0 },
          },
        },
        source: `${ORIGINAL_TESTS}: test_single_water_returns_length_one_batch`,
      },
    }],
  }),
  defineOp({
    ...base,
    method: 'POST',
    name: 'cdx_to_mol_convert_cdx_to_mol_post',
    path: '/convert/cdx-to-mol',
    summary: 'Parse an uploaded .cdx file and return its MDL MOL content',
    description:
      'A ChemDraw file (multipart field `file`; `.cdx` binary or `.cdxml`, chosen by the file name) read by Open Babel: ' +
      '`{molblock}`, the first molecule as a V2000 MOL block (2D coordinates generated when the file has none). Another ' +
      `extension or a file over ${MAX_CDX_BYTES / 1_048_576} MB is a 400, a file Open Babel cannot read a 422. MCP clients ` +
      'send the bytes base64-encoded in `cdx_base64` with `filename`. Needs Open Babel (docs/toolkits.md).',
    args: z.object({
      cdx_base64: z.string().min(1, 'cdx_base64 must not be empty').describe('The ChemDraw file, base64-encoded (REST clients upload it as the multipart file field `file`)'),
      filename: z.string().max(1024).default('molecule.cdx').describe('Name of the uploaded file: .cdx or .cdxml'),
      toolkit: toolkit(['openbabel'] as const),
    }),
    body: { kind: 'multipart', field: 'file', into: 'cdx_base64', filenameInto: 'filename' },
    output: 'application/json',
    answer: z.strictObject({ molblock: z.string().describe('V2000 MOL block') }),
    task: 'cdx_to_mol',
    examples: [{
      query: { cdx_base64: KETCHER_CDX, filename: 'ketcher.cdx', toolkit: 'openbabel' },
      expected: {
        value: {
          molblock: {
            $molblock: {
              atoms: Array.from({ length: 10 }, () => 'C'),
              bonds: [[1, 5, 1], [2, 3, 1], [3, 1, 2], [4, 2, 2], [4, 9, 1], [5, 6, 2], [6, 4, 1], [7, 2, 1], [8, 7, 2], [9, 10, 2], [10, 8, 1]],
              dim: '2D',
            },
          },
        },
        source: 'Open Babel 3.1.1 run directly: obabel -icdx ketcher.cdx -omol (naphthalene, as the original\'s test_atom_count_matches_naphthalene)',
      },
    }],
  }),
  defineOp({
    ...base,
    method: 'POST',
    name: 'batch_convert_convert_batch_post',
    path: '/convert/batch',
    summary: 'Batch convert chemical structures to various formats',
    description:
      `JSON body \`{"inputs": [{"value": ..., "input_format": ...}]}\` (at most ${MAX_BATCH_INPUTS} inputs; more is a 413 naming ` +
      'the limit). Each input (`smiles`, `inchi`, `selfies`, `iupac`, `molblock`, `xyz`; `input_format` left out: detected as ' +
      '/convert/detect-format does) is converted to `output_format` (smiles, canonicalsmiles, inchi, inchikey, selfies, ' +
      'cxsmiles, smarts, mol2d; mol3d is /convert/mol3D\'s) by RDKit: `{results: [{input, output, success, error}], ' +
      'summary: {total, successful, failed}}`; a failed input is its own result with the error. InChI inputs are read by ' +
      'Open Babel and IUPAC names by the resolvers of /convert/smiles (OPSIN, the catalog, the external database) (docs/convert.md).',
    args: BATCH_ARGS,
    body: { kind: 'json' },
    output: 'application/json',
    answer: z.strictObject({
      results: z.array(z.strictObject({
        input: z.strictObject({ value: z.string(), input_format: z.string() }),
        output: z.string(),
        success: z.boolean(),
        error: z.string(),
      })),
      summary: z.strictObject({ total: z.int().min(0), successful: z.int().min(0), failed: z.int().min(0) }),
    }),
    task: 'batch_convert',
    // InChI and name inputs are read in the api (api/chem/handlers/convert-more.ts).
    handler: 'api',
    examples: [{
      query: { output_format: 'smiles' },
      expected: { value: { results: [], summary: { total: 0, successful: 0, failed: 0 } }, source: `${ORIGINAL_TESTS}: test_batch_empty_inputs` },
    }],
  }),
] as const;

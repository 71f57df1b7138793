/**
 * Format conversion and 2D depiction (docs/spec/chem-service.md §2.2 (16), (18)-(22), (24), (25) and §2.3 (26)).
 * RDKit by default; `toolkit=cdk|openbabel` where the original accepts it and the toolkit can
 * answer (run by its sidecar: shared/toolkits, docs/toolkits.md); any other value answers 422
 * naming the allowed ones. Tasks are in convert.tasks.ts.
 */
import { z } from 'zod';
import { defineOp, type MolblockShape } from './types.ts';
import { bool, int, num, smiles, toolkit } from './params.ts';
import { autoDetect } from './auto-detect.ts';
import { MAX_PNG_SCALE, MAX_PNG_SIDE } from '../png-limits.ts';
import { CAFFEINE, NATIVE_RDKIT, SPEC } from './examples.ts';

/** Ethanol's connection table; RDKit's depictor draws bonds 1.5 long. */
const ETHANOL_2D: MolblockShape = { atoms: ['C', 'C', 'O'], bonds: [[1, 2, 1], [2, 3, 1]], dim: '2D', lengths: [1.5, 1.5] };
const ETHANOL_INCHI = 'InChI=1S/C2H6O/c1-2-3/h3H,2H2,1H3';
const ETHANOL_INCHI_SOURCE = 'InChI 1.03 (inchi_main) in test/fixtures/chembl-pipeline-reference.json';
const CAFFEINE_SELFIES = '[C][N][C][=N][C][=C][Ring1][Branch1][C][=Branch1][C][=O][N][Branch1][=Branch2][C][=Branch1][C][=O][N][Ring1][Branch2][C][C]';

const rdkitOnly = () => toolkit(['rdkit'] as const);
const base = { tag: 'convert', method: 'GET' as const, mode: 'quick' as const };
const smilesArgs = () => z.object({ smiles: smiles(), toolkit: rdkitOnly(), auto_detect: autoDetect() });
/** The toolkits an operation accepts: RDKit (the default) and the sidecars that answer it. */
const withToolkits = <const T extends readonly string[]>(others: T) =>
  z.object({ smiles: smiles(), toolkit: toolkit(['rdkit', ...others] as const), auto_detect: autoDetect() });
const BY_TOOLKIT = ' `toolkit=cdk` / `toolkit=openbabel` answer what that toolkit writes (docs/toolkits.md).';

export const convertOps = [
  defineOp({
    ...base,
    name: 'generate_2d_coordinates',
    path: '/convert/mol2D',
    summary: 'Generates 2D Coordinates for the input molecules',
    description: 'A V2000 molblock with 2D coordinates from RDKit\'s depictor (text/plain).' + BY_TOOLKIT,
    args: withToolkits(['cdk', 'openbabel'] as const),
    output: 'text/plain',
    task: 'generate_2d_coordinates',
    examples: [{ query: { smiles: 'CCO' }, expected: { value: { $molblock: ETHANOL_2D }, source: `${NATIVE_RDKIT}: Compute2DCoords, MolToMolBlock` } }],
  }),
  defineOp({
    ...base,
    name: 'generate_smiles',
    // Names may be looked up in the external compound database (docs/names.md).
    openWorld: true,
    path: '/convert/smiles',
    summary: 'Generate SMILES from a given input',
    description:
      'Reads a structure or a chemical name and answers its RDKit canonical isomeric SMILES (a JSON string). ' +
      '`representation=auto` recognises SMILES, CXSMILES, V2000/V3000 molblocks and SELFIES (a string of bracket symbols ' +
      'with at least one SELFIES-only symbol such as [Branch1], [Ring1] or [=C]); InChI, InChIKey and PDB are recognised ' +
      'and refused with 422 naming the format; an input none of these readers accepts that looks like a name is read as ' +
      'a name. `representation=iupac` reads IUPAC and trivial names, trying in order OPSIN (when a Java runtime and OPSIN ' +
      'are installed; see /health), the catalog\'s names, IUPAC names and synonyms, then the external compound database ' +
      '(EXTDB_URL, PubChem by default). The answer for a name is the same JSON string; the response header `x-resolver` ' +
      '(`opsin`, `catalog` or `extdb`; over MCP a second text content) says which resolver answered. An unresolvable name ' +
      'is a 422 saying what each resolver answered. With `representation=iupac` read by OPSIN, or `representation=selfies`, ' +
      'the answer is OPSIN\'s or the SELFIES decoder\'s own string (as the original answers), once RDKit has read it.',
    args: z.object({
      input_text: z.string().min(1).max(100_000).describe('The structure (SMILES, CXSMILES, molblock, SELFIES) or a chemical name'),
      representation: z
        .enum(['auto', 'iupac', 'smiles', 'cxsmiles', 'molblock', 'selfies'])
        .default('auto')
        .describe('Notation of input_text; auto detects it; iupac: an IUPAC or trivial name'),
    }),
    output: 'application/json',
    answer: z.string().nullable().describe('Canonical isomeric SMILES; null for a SELFIES without atoms'),
    task: 'generate_smiles',
    // The original service's SELFIES of caffeine (spec §2.2 (23)), which it decodes to CAFFEINE (§2.2 (18)).
    examples: [{
      query: { input_text: CAFFEINE_SELFIES },
      expected: { value: 'Cn1c(=O)c2c(ncn2C)n(C)c1=O', source: `${SPEC('§2.2 (18)')}, written as RDKit canonical SMILES by ${NATIVE_RDKIT}` },
    }],
    handler: 'api',
  }),
  defineOp({
    ...base,
    name: 'generate_canonical_smiles',
    path: '/convert/canonicalsmiles',
    summary: 'Generate CanonicalSMILES from a given SMILES',
    description: 'RDKit canonical isomeric SMILES in Kekulé form (`MolToSmiles(kekuleSmiles=True)`), a JSON string; caffeine → `CN1C(=O)C2=C(N=CN2C)N(C)C1=O`.' + BY_TOOLKIT,
    args: withToolkits(['cdk', 'openbabel'] as const),
    output: 'application/json',
    answer: z.string().describe('Canonical SMILES'),
    task: 'generate_canonical_smiles',
    examples: [{ query: { smiles: CAFFEINE }, expected: { value: 'CN1C(=O)C2=C(N=CN2C)N(C)C1=O', source: `${SPEC('§2.2 (19)')}, toolkit rdkit` } }],
  }),
  defineOp({
    ...base,
    name: 'generate_cxsmiles',
    path: '/convert/cxsmiles',
    summary: 'Generate CXSMILES from a given SMILES',
    description: 'RDKit CXSMILES with 2D coordinates (`Compute2DCoords` then `MolToCXSmiles`), a JSON string.' + BY_TOOLKIT,
    args: withToolkits(['cdk'] as const),
    output: 'application/json',
    answer: z.string().describe('CXSMILES with 2D coordinates'),
    task: 'generate_cxsmiles',
    // RDKit releases place the depiction differently (2022.09: centred); the bond lengths are the same.
    examples: [{
      query: { smiles: 'CCO' },
      expected: { value: { $cxsmiles: { smiles: 'CCO', lengths: [[1, 2, 1.5], [2, 3, 1.5]] } }, source: `${NATIVE_RDKIT}: Compute2DCoords, MolToCXSmiles` },
    }],
  }),
  defineOp({
    ...base,
    name: 'generate_inchi',
    path: '/convert/inchi',
    summary: 'Generate InChI from a given SMILES',
    description: 'Standard InChI (IUPAC InChI library inside RDKit), a JSON string; null when there is nothing to describe.' + BY_TOOLKIT,
    args: withToolkits(['cdk', 'openbabel'] as const),
    output: 'application/json',
    answer: z.string().nullable().describe('Standard InChI; null when there is nothing to describe'),
    task: 'generate_inchi',
    examples: [{ query: { smiles: CAFFEINE }, expected: { value: 'InChI=1S/C8H10N4O2/c1-10-4-9-6-5(10)7(13)12(3)8(14)11(6)2/h4H,1-3H3', source: SPEC('§2.2 (21)') } }],
  }),
  defineOp({
    ...base,
    name: 'generate_inchikey',
    path: '/convert/inchikey',
    summary: 'Generate InChI-Key from a given SMILES',
    description: 'Standard InChIKey, a JSON string; null when there is nothing to describe.' + BY_TOOLKIT,
    args: withToolkits(['cdk', 'openbabel'] as const),
    output: 'application/json',
    answer: z.string().nullable().describe('Standard InChIKey; null when there is nothing to describe'),
    task: 'generate_inchikey',
    examples: [{ query: { smiles: CAFFEINE }, expected: { value: 'RYYVLZVUVIJVGH-UHFFFAOYSA-N', source: SPEC('§2.2 (22)') } }],
  }),
  defineOp({
    ...base,
    name: 'generate_formats',
    path: '/convert/formats',
    summary: 'Convert SMILES to various molecular formats using different toolkits',
    description: '`{"mol": V2000 molblock with 2D coordinates, "canonicalsmiles": Kekulé canonical SMILES, "inchi", "inchikey"}`.' + BY_TOOLKIT,
    args: withToolkits(['cdk', 'openbabel'] as const),
    output: 'application/json',
    answer: z.strictObject({
      mol: z.string().describe('V2000 molblock with 2D coordinates'),
      canonicalsmiles: z.string(),
      inchi: z.string().nullable(),
      inchikey: z.string().nullable(),
    }),
    task: 'generate_formats',
    examples: [{
      query: { smiles: 'CCO' },
      expected: {
        value: { mol: { $molblock: ETHANOL_2D }, canonicalsmiles: 'CCO', inchi: ETHANOL_INCHI, inchikey: 'LFQSCWFLJHTTHZ-UHFFFAOYSA-N' },
        source: `${NATIVE_RDKIT}; InChI and key: ${ETHANOL_INCHI_SOURCE}`,
      },
    }],
  }),
  defineOp({
    ...base,
    name: 'smiles_to_smarts_convert_smarts_get',
    path: '/convert/smarts',
    summary: 'Generate SMARTS from a given SMILES',
    description: 'RDKit `MolToSmarts` of the molecule, a JSON string.',
    args: smilesArgs(),
    output: 'application/json',
    answer: z.string().describe('SMARTS'),
    task: 'smiles_to_smarts',
    examples: [{
      query: { smiles: CAFFEINE },
      expected: { value: '[#6]-[#7]1:[#6]:[#7]:[#6]2:[#6]:1:[#6](=[#8]):[#7](:[#6](=[#8]):[#7]:2-[#6])-[#6]', source: `${SPEC('§2.2 (25)')}; also ${NATIVE_RDKIT}` },
    }],
  }),
  defineOp({
    ...base,
    tag: 'depict',
    name: 'generate_2d_depiction',
    path: '/depict/2D',
    summary: 'Generates a 2D depiction of a molecule',
    description:
      'SVG drawn by RDKit (Kekulé form, 2D coordinates from the depictor). `rotate` turns the drawing by degrees, ' +
      '`CIP` adds R/S and E/Z labels, `unicolor` draws every atom black, and the first match of the SMARTS ' +
      '`highlight` is highlighted (default "COSN" as the original service; an empty string highlights nothing; ' +
      'an invalid SMARTS is a 422). `format=png` answers a PNG (`image/png`) rendered from that SVG by resvg, ' +
      '`width`×`scale` by `height`×`scale` pixels on white (`scale`, the pixel density, only applies to PNG; at most ' +
      `${MAX_PNG_SIDE} pixels each way, else a 422). Over MCP an SVG answer comes as a PNG image content (its own size) ` +
      'followed by the SVG as text. `toolkit=cdk`: CDK\'s DepictionGenerator SVG (every highlight match glows; SVG only).',
    args: z.object({
      smiles: smiles(),
      auto_detect: autoDetect(),
      toolkit: toolkit(['rdkit', 'cdk'] as const),
      format: z.enum(['svg', 'png']).default('svg').describe('Image format: svg, or png rendered from the SVG'),
      width: int(512, 16, 4096, 'Width in pixels'),
      height: int(512, 16, 4096, 'Height in pixels'),
      scale: num(1, 0.25, MAX_PNG_SCALE, `PNG pixels per drawing pixel (format=png only): the PNG is width×scale by height×scale, at most ${MAX_PNG_SIDE} each way`),
      rotate: int(0, -360, 360, 'Rotation in degrees'),
      CIP: bool(false, 'Show CIP stereo labels (R/S, E/Z)'),
      unicolor: bool(false, 'Draw all atoms in black'),
      highlight: z.string().max(1000).default('COSN').describe('SMARTS whose first match is highlighted'),
    }).superRefine((a, ctx) => {
      if (a.format !== 'png') return;
      for (const side of ['width', 'height'] as const) {
        if (a[side] * a.scale <= MAX_PNG_SIDE) continue;
        ctx.addIssue({
          code: 'custom',
          path: [a.scale === 1 ? side : 'scale'],
          message: `A PNG is at most ${MAX_PNG_SIDE} pixels each way: ${side} × scale = ${a[side] * a.scale}`,
          input: a.scale === 1 ? a[side] : a.scale,
        });
        return;
      }
    }),
    output: 'image/svg+xml',
    outputBy: { arg: 'format', media: { png: 'image/png' } },
    task: 'generate_2d_depiction',
    examples: [{
      query: { smiles: 'CCO' },
      expected: { value: { $svg: { width: 512, height: 512, bonds: [[0, 1], [1, 2]], labels: [2] } }, source: `${NATIVE_RDKIT}: MolDraw2DSVG(512, 512)` },
    }],
  }),
] as const;

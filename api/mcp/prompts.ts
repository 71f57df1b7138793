/**
 * MCP prompts: the questions natural-product researchers bring to the catalog, each answered as a
 * user message that tells the assistant which natprod tools to call, with which arguments, and
 * what to report.
 *
 * - `dereplicate_mass` (mz, taxon?, adducts?, ppm?): candidates for measured m/z values from
 *   search_mass, narrowed to a taxon, then each candidate's sources from get_molecule;
 * - `compound_profile` (compound): what is known about a compound and where it comes from;
 * - `taxon_chemistry` (taxon): the chemistry reported from a taxon.
 *
 * Arguments are checked (a missing or unreadable one is InvalidParams), so the message never
 * sends the assistant off with an m/z or an adduct that search_mass would refuse.
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ErrorCode, GetPromptRequestSchema, ListPromptsRequestSchema, McpError, type GetPromptResult, type Prompt } from '@modelcontextprotocol/sdk/types.js';
import { ADDUCTS_BY_NAME, DEFAULT_ADDUCTS, DEFAULT_PPM, MAX_MZ, MAX_PPM } from '../catalog/search/index.ts';

export const PROMPTS: Prompt[] = [
  {
    name: 'dereplicate_mass',
    title: 'Dereplicate a mass in a taxon',
    description: 'Which known natural products match measured m/z values (MS1), optionally among those reported from a taxon; each candidate with its formula, error and sources.',
    arguments: [
      { name: 'mz', description: 'The measured m/z, or several separated by commas (e.g. 303.0499)', required: true },
      { name: 'taxon', description: 'Only molecules reported from an organism under this taxon, any rank (e.g. Asteraceae, Artemisia)', required: false },
      { name: 'adducts', description: `Adducts to consider, separated by commas (e.g. [M+H]+, [M+Na]+; default ${DEFAULT_ADDUCTS.join(', ')})`, required: false },
      { name: 'ppm', description: `Tolerance in ppm (default ${DEFAULT_PPM})`, required: false },
    ],
  },
  {
    name: 'compound_profile',
    title: 'What is known about a compound',
    description: 'Summarise what the catalog knows about a compound: structure and properties, the organisms it was reported from (with their taxonomy), the publications and the source collections.',
    arguments: [{ name: 'compound', description: 'A name, a COCONUT identifier (CNP0123456), an InChIKey or a SMILES', required: true }],
  },
  {
    name: 'taxon_chemistry',
    title: 'Chemistry of a taxon',
    description: 'Which natural products have been reported from a taxon (a family, a genus, a species ...), and what characterises them.',
    arguments: [{ name: 'taxon', description: 'A taxon at any rank, or an organism name (e.g. Artemisia annua)', required: true }],
  },
];

const invalid = (msg: string) => new McpError(ErrorCode.InvalidParams, msg);

function required(args: Record<string, string>, name: string): string {
  const v = args[name]?.trim();
  if (!v) throw invalid(`The argument ${name} is required.`);
  return v;
}

function optional(args: Record<string, string>, name: string): string | undefined {
  return args[name]?.trim() || undefined;
}

function list(s: string): string[] {
  return s
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
}

function dereplicate(args: Record<string, string>): string {
  const mz = list(required(args, 'mz')).map((x) => {
    const n = Number(x);
    if (!/^\d+(\.\d+)?$/.test(x) || !(n > 0) || n > MAX_MZ) throw invalid(`mz: ${JSON.stringify(x)} is not an m/z (a positive number up to ${MAX_MZ}).`);
    return n;
  });
  const taxon = optional(args, 'taxon');
  const adducts = optional(args, 'adducts') ? list(args.adducts) : undefined;
  for (const a of adducts ?? []) if (!ADDUCTS_BY_NAME.has(a)) throw invalid(`adducts: unknown adduct ${JSON.stringify(a)}; known: ${[...ADDUCTS_BY_NAME.keys()].join(', ')}.`);
  const ppmText = optional(args, 'ppm');
  const ppm = ppmText === undefined ? undefined : Number(ppmText);
  if (ppm !== undefined && !(ppm > 0 && ppm <= MAX_PPM)) throw invalid(`ppm: ${JSON.stringify(ppmText)} is not a tolerance (a number above 0, at most ${MAX_PPM}).`);

  const call = { query: mz.length === 1 ? mz[0] : mz, ...(adducts ? { adducts } : {}), ...(ppm !== undefined ? { tolerance_ppm: ppm } : {}), ...(taxon ? { taxon } : {}) };
  return [
    `Dereplicate the measured m/z ${mz.join(', ')}${taxon ? ` among the natural products reported from ${taxon}` : ''} using the natprod catalog tools.`,
    '',
    `1. Call search_mass with ${JSON.stringify(call)}. Each hit is a molecule with its match: adduct, theoretical m/z, error in ppm and Da, molecular formula.` +
      (taxon ? ` If nothing matches within ${taxon}, call it again without taxon and say that the candidates come from other organisms.` : ''),
    '2. For the best candidates (smallest |error_ppm|; at most ten), call get_molecule with the identifier to get the organisms (with their lineage), the citations (DOIs) and the collections.',
    `3. Group candidates sharing a molecular formula: MS1 cannot tell isomers apart. Say which candidates are${taxon ? ` reported from ${taxon} itself or only from relatives` : ' reported from related organisms'}, which are only in one collection, and which have literature (DOIs).`,
    '4. Answer a table: identifier, name, formula, adduct, error (ppm), organisms, DOIs; then the candidates you consider most plausible and why, and what further evidence (MS/MS, retention time, NMR) would decide between isomers.',
    'If structures help, generate_2d_depiction draws a SMILES. Do not invent hits: report only what the tools answered.',
  ].join('\n');
}

function profile(args: Record<string, string>): string {
  const compound = required(args, 'compound');
  return [
    `Summarise what is known about the compound ${JSON.stringify(compound)} and its natural sources, using the natprod catalog tools.`,
    '',
    '1. Call get_molecule with this query. If it is a SMILES, first call generate_inchikey with it and use the InChIKey ' +
      '(or search_catalog with type exact). If get_molecule finds nothing, try search_coconut with type text; if it answers several molecules (`ambiguous`), ' +
      'list them (identifier, name, stereo) and continue with the one that fits, or ask.',
    '2. Report: identifier, name, IUPAC name, molecular formula, exact mass, the main properties (logP, TPSA, H-bond donors and acceptors, Lipinski violations, NP-likeness), ' +
      'the chemical class (`properties` chemical_super_class, chemical_class, chemical_sub_class, np_classifier_* fields), and the annotation level and status.',
    '3. Sources: every organism with its lineage (kingdom, family, genus, species) grouped by family; the publications (DOIs, titles); the collections (data sets) it is listed in. ' +
      'list_molecules with the organism or the citation shows what else the same source reports.',
    '4. Draw it with generate_2d_depiction (the canonical SMILES) when a picture helps.',
    'Keep to what the catalog answers; say explicitly when a field is empty (e.g. no citation).',
  ].join('\n');
}

function taxonChemistry(args: Record<string, string>): string {
  const taxon = required(args, 'taxon');
  return [
    `Describe the natural products reported from ${JSON.stringify(taxon)}, using the natprod catalog tools.`,
    '',
    `1. Call search_taxon with {"taxon": ${JSON.stringify(taxon)}, "limit": 100} and page on while there are more; note the total.`,
    '2. Summarise the chemical classes (call get_molecule on representative identifiers for their properties and classes), the molecular weight range, and the organisms under the taxon they come from.',
    '3. For the best documented molecules (most citations), give the DOIs; list_molecules with an organism id shows one organism\'s molecules.',
    '4. Answer: the total, a table of the most characteristic compounds (identifier, name, formula, class, organism), and what distinguishes this taxon\'s chemistry.',
  ].join('\n');
}

const BUILD: Record<string, (args: Record<string, string>) => string> = {
  dereplicate_mass: dereplicate,
  compound_profile: profile,
  taxon_chemistry: taxonChemistry,
};

export function getPrompt(name: string, args: Record<string, string> = {}): GetPromptResult {
  const prompt = PROMPTS.find((p) => p.name === name);
  if (!prompt) throw invalid(`Unknown prompt ${JSON.stringify(name)}: use ${PROMPTS.map((p) => p.name).join(', ')}.`);
  const known = new Set(prompt.arguments?.map((a) => a.name));
  for (const k of Object.keys(args)) if (!known.has(k)) throw invalid(`The prompt ${name} takes no argument ${k}.`);
  return { description: prompt.description, messages: [{ role: 'user', content: { type: 'text', text: BUILD[name](args) } }] };
}

export function registerPrompts(server: Server) {
  server.setRequestHandler(ListPromptsRequestSchema, async () => ({ prompts: PROMPTS }));
  server.setRequestHandler(GetPromptRequestSchema, async (req) => getPrompt(req.params.name, req.params.arguments));
}

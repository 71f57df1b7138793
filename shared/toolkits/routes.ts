/**
 * Which tasks a toolkit sidecar answers, and how its answer becomes the operation's. A task whose
 * arguments say `toolkit: 'cdk' | 'openbabel' | 'rdkit'` and which is listed here for that toolkit
 * runs in the sidecar instead of on a thread (ChemPool.route, installed by Toolkits.attach).
 * `rdkit` is listed only for the 3D operations (native RDKit's embedding, which the WASM build
 * lacks); every other `toolkit=rdkit` stays on the RDKit WASM threads. The registry's `toolkit`
 * enums decide which toolkits an operation accepts: anything else is a 422 there.
 */
import { AppError } from '../errors.ts';
import { descriptorsHtml, descriptorsTableHtml } from '../chem/descriptors/html.ts';
import { viewerPage } from '../chem/depict/depict3d.ts';
import type { DescriptorValue } from '../chem/descriptors/descriptors.ts';
import type { ToolkitName } from './setup.ts';
import { assertEmbeddable, assertLength, assertWithinSize, countHeavyAtoms } from '../structure-limits.ts';
import { cdxToMol, xyzWithOpenBabel } from './convert-routes.ts';

/** One call into a toolkit's sidecar: its op and arguments; answers the value or throws AppError. */
export type ToolkitCall = (toolkit: ToolkitName, request: Record<string, unknown>) => Promise<unknown>;
/** An RDKit task on the pool's threads (for the descriptor keys the original computes the same way whatever the toolkit). */
export type RdkitCall = (task: string, args: Record<string, unknown>) => Promise<unknown>;

interface Route {
  /** `all` (descriptors: RDKit and CDK side by side) is served with the CDK sidecar. */
  toolkits: readonly (ToolkitName | 'all')[];
  run(toolkit: ToolkitName, args: Record<string, unknown>, call: ToolkitCall, rdkit: RdkitCall): Promise<unknown>;
}

const simple = (toolkits: readonly ToolkitName[], op: string): Route => ({
  toolkits,
  run: (toolkit, a, call) => call(toolkit, { op, smiles: a.smiles }),
});

// Kept in step with MAX_MOLECULES in shared/chem/similarity/similarity.ts.
const MAX_SIMILARITY = 500;

/** Keys of the COCONUT set the original takes from one place whatever the toolkit: its sugar utility and RDKit's NP-likeness. */
const SHARED_KEYS = ['linear_sugars', 'circular_sugars', 'nplikeness'] as const;
const ORDER = [
  'atom_count', 'heavy_atom_count', 'molecular_weight', 'exact_molecular_weight', 'alogp', 'rotatable_bond_count',
  'topological_polar_surface_area', 'hydrogen_bond_acceptors', 'hydrogen_bond_donors', 'hydrogen_bond_acceptors_lipinski',
  'hydrogen_bond_donors_lipinski', 'lipinski_rule_of_five_violations', 'aromatic_rings_count', 'qed_drug_likeliness',
  'formal_charge', 'fractioncsp3', 'number_of_minimal_rings', 'van_der_waals_volume', 'linear_sugars', 'circular_sugars',
  'murcko_framework', 'nplikeness', 'molecular_formula',
];

/** CDK's descriptor set (the sidecar) with the sugar flags and NP-likeness natprod computes for every toolkit. */
async function cdkDescriptors(smiles: string, call: ToolkitCall, rdkit: RdkitCall): Promise<Record<string, DescriptorValue>> {
  const [cdk, shared] = await Promise.all([
    call('cdk', { op: 'descriptors', smiles }) as Promise<Record<string, DescriptorValue>>,
    rdkit('generate_descriptors', { smiles, format: 'json', toolkit: 'rdkit' }) as Promise<Record<string, DescriptorValue>>,
  ]);
  const out: Record<string, DescriptorValue> = {};
  for (const k of ORDER) out[k] = (SHARED_KEYS as readonly string[]).includes(k) ? shared[k] : cdk[k];
  return out;
}

/**
 * toolkit=all: the original's combined table (CM 3.11, get_cdk_rdkit_combined_descriptors), each
 * value an [RDKit, CDK] pair. RDKit's column from the threads (internal task rdkit_all_descriptors,
 * shared/chem/descriptors/all.ts); CDK's from the sidecar's descriptor set asked with `combined`
 * (which adds CDK's bond count and its real donor count, as that table has them), by this map.
 */
const CDK_KEY_OF_ALL: Record<string, string | null> = {
  'Atom count': 'atom_count', 'Bond count': 'bond_count', 'Heavy atom count': 'heavy_atom_count',
  'Molecular weight': 'molecular_weight', 'Exact molecular weight': 'exact_molecular_weight', 'Calculated LogP': 'alogp',
  'Rotatable bond count': 'rotatable_bond_count', 'Topological polar surface area': 'topological_polar_surface_area',
  'Hydrogen bond acceptors': 'hydrogen_bond_acceptors', 'Hydrogen bond donors': 'hydrogen_bond_donors_combined',
  'Hydrogen bond acceptors (Lipinski)': 'hydrogen_bond_acceptors_lipinski', 'Hydrogen bond donors (Lipinski)': 'hydrogen_bond_donors_combined',
  "Lipinski's rule of five violations": 'lipinski_rule_of_five_violations', 'Aromatic rings count': 'aromatic_rings_count',
  'QED drug likeliness': 'qed_drug_likeliness', 'Formal Charge': 'formal_charge', FractionCSP3: 'fractioncsp3',
  'Number of Minimal Rings': 'number_of_minimal_rings', 'Van der Waals Volume': 'van_der_waals_volume',
};

async function allDescriptors(smiles: string, html: boolean, call: ToolkitCall, rdkit: RdkitCall): Promise<unknown> {
  const [cdk, own] = await Promise.all([
    call('cdk', { op: 'descriptors', smiles, combined: true }) as Promise<Record<string, DescriptorValue>>,
    rdkit('rdkit_all_descriptors', { smiles }) as Promise<Record<string, DescriptorValue>>,
  ]);
  const pairs = Object.entries(own).map(([name, value]): [string, DescriptorValue[]] => {
    const key = CDK_KEY_OF_ALL[name];
    return [name, [value, key === null || key === undefined ? null : cdk[key]]];
  });
  if (html) return { mediaType: 'text/html', body: descriptorsTableHtml(['RDKit Descriptors', 'CDK Descriptors'], pairs) };
  return Object.fromEntries(pairs);
}

export const ROUTES: Record<string, Route> = {
  generate_canonical_smiles: simple(['cdk', 'openbabel'], 'canonical_smiles'),
  generate_cxsmiles: simple(['cdk'], 'cxsmiles'),
  generate_2d_coordinates: simple(['cdk', 'openbabel'], 'mol2d'),
  // Open Babel's make3D/gen3D, or native RDKit's EmbedMolecule + MMFF (the original's get_3d_conformers).
  generate_3d_coordinates: simple(['openbabel', 'rdkit'], 'mol3d'),
  // The original's 3D viewer: get_ob_mol(threeD, depict) and get_3d_conformers(depict) keep the hydrogens.
  depict_3d_molecule_depict_3D_get: {
    toolkits: ['openbabel', 'rdkit'],
    async run(toolkit, a, call) {
      const molblock = (await call(toolkit, { op: 'mol3d', smiles: a.smiles, hydrogens: true })) as string;
      return viewerPage(molblock, String(a.smiles));
    },
  },
  generate_inchi: simple(['cdk', 'openbabel'], 'inchi'),
  generate_inchikey: simple(['cdk', 'openbabel'], 'inchikey'),
  generate_formats: simple(['cdk', 'openbabel'], 'formats'),
  generate_descriptors: {
    toolkits: ['cdk', 'all'],
    async run(_t, a, call, rdkit) {
      if (a.toolkit === 'all') return allDescriptors(String(a.smiles), a.format === 'html', call, rdkit);
      const values = await cdkDescriptors(String(a.smiles), call, rdkit);
      return a.format === 'html' ? { mediaType: 'text/html', body: descriptorsHtml(values) } : values;
    },
  },
  generate_multiple_descriptors: {
    toolkits: ['cdk'],
    async run(_t, a, call, rdkit) {
      const items = String(a.smiles).split(',').map((s) => s.trim()).filter((s) => s !== '');
      if (items.length < 2) throw new AppError(422, 'At least two molecules are required.', 'invalid_input');
      const unique = [...new Set(items)];
      const values = await Promise.all(unique.map((s) => cdkDescriptors(s, call, rdkit)));
      return Object.fromEntries(unique.map((s, i) => [s, values[i]]));
    },
  },
  // The original's get_CDK_HOSE_codes: HOSECodeGenerator on CDK's own parse of the SMILES, every atom.
  generate_HOSE_codes: {
    toolkits: ['cdk'],
    run: (_t, a, call) => call('cdk', { op: 'hose', smiles: a.smiles, spheres: a.spheres, ringsize: a.ringsize }),
  },
  // The original's CDK branch of /chem/tanimoto: CircularFingerprinter ECFP2/4/6 (PubChem keys are not offered here).
  generate_bitsimilarity_similarity: {
    toolkits: ['cdk'],
    run(_t, a, call) {
      const items = String(a.smiles).split(',');
      if (items.length < 2) throw new AppError(422, 'At least two molecules are required.', 'invalid_input');
      if (items.length > MAX_SIMILARITY) throw new AppError(422, `At most ${MAX_SIMILARITY} molecules per request (got ${items.length}).`, 'invalid_input');
      if (a.fingerprinter !== 'ECFP') throw new AppError(422, `toolkit=cdk computes ECFP (CDK's CircularFingerprinter) only; fingerprinter=${String(a.fingerprinter)} is an RDKit fingerprint`, 'invalid_input');
      return call('cdk', { op: 'tanimoto', smiles: items.join(','), radius: a.radius, nBits: a.nBits });
    },
  },
  // CM 3.11's /convert/xyz with toolkit=openbabel and /convert/cdx-to-mol (convert-routes.ts).
  xyz_to_formats: { toolkits: ['openbabel'], run: (_t, a, call) => xyzWithOpenBabel(a, call) },
  cdx_to_mol: { toolkits: ['openbabel'], run: (_t, a, call) => cdxToMol(a, call) },
  // auto_detect=true with an InChI (api/chem/auto-detect.ts): Open Babel reads it.
  inchi_to_smiles: { toolkits: ['openbabel'], run: (_t, a, call) => call('openbabel', { op: 'inchi_to_smiles', inchi: a.inchi }) },
  // The original's /depict/2D_enhanced: CDK only (CdkDepictEnhanced.java); atomIds as the original reads them (non-numbers dropped).
  depict_2d_molecule_enhanced: {
    toolkits: ['cdk'],
    run(_t, a, call) {
      const { toolkit: _toolkit, atomIds, ...options } = a;
      const ids = String(atomIds ?? '').split(',').map((x) => x.trim()).filter((x) => /^\d+$/.test(x));
      return call('cdk', { op: 'depict_enhanced', ...options, atomIds: ids.join(',') });
    },
  },
  generate_2d_depiction: {
    toolkits: ['cdk'],
    run(_t, a, call) {
      if (a.format === 'png') throw new AppError(422, 'toolkit=cdk draws SVG only (format=svg); use toolkit=rdkit for PNG', 'invalid_input');
      const { smiles, width, height, rotate, CIP, unicolor, highlight } = a;
      return call('cdk', { op: 'depict', smiles, width, height, rotate, CIP, unicolor, highlight });
    },
  },
};

/** The 3D operations: whatever the toolkit, inputs over MAX_3D_HEAVY_ATOMS are refused (their registry descriptions say so). */
const EMBEDS = new Set(['generate_3d_coordinates', 'depict_3d_molecule_depict_3D_get']);

/**
 * The size bounds of the RDKit threads, applied before a sidecar sees the input: the same 422 for
 * the same input whatever the toolkit (docs/architecture.md, "Limits"). Open Babel's 3D embedding
 * of a 5,000-atom polyene ran out of its 2 GB and aborted the sidecar (the fuzzer's seed 20261128).
 * A list (`a,b,c`: similarity, multiple descriptors) is checked molecule by molecule.
 */
export function assertRouteInput(task: string, args: Record<string, unknown>, maxHeavyAtoms: number): void {
  const text = args.smiles;
  if (typeof text !== 'string') return;
  assertLength(text);
  for (const item of text.includes('\n') ? [text] : text.split(',')) {
    assertWithinSize(item, maxHeavyAtoms);
    if (EMBEDS.has(task)) assertEmbeddable(countHeavyAtoms(item));
  }
}

/** The route of a task for the toolkit its arguments name, if a sidecar answers it. */
export function routeOf(task: string, args: unknown): { toolkit: ToolkitName; route: Route } | undefined {
  const toolkit = (args as { toolkit?: unknown } | null)?.toolkit;
  if (toolkit !== 'cdk' && toolkit !== 'openbabel' && toolkit !== 'rdkit' && toolkit !== 'all') return undefined;
  const route = ROUTES[task];
  if (!route?.toolkits.includes(toolkit)) return undefined;
  return { toolkit: toolkit === 'all' ? 'cdk' : toolkit, route };
}

/** Toolkits a sidecar answers for each operation (test/unit/toolkit-routes.test.ts checks them against the registry). */
export const toolkitsOf = (task: string): readonly (ToolkitName | 'all')[] => ROUTES[task]?.toolkits ?? [];

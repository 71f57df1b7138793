/**
 * The data tables of the natural-product chemistry (NP-likeness model, QED parameters, SA-score
 * fragment scores, PAINS SMARTS), read from ./data once per thread, on first use. Shared by the
 * chemistry operations (shared/ops/descriptors.tasks.ts) and the catalog's derivation (derive.ts),
 * so both compute with the same tables.
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import type { FragmentTable } from './morgan-env.ts';
import { parseNpModel } from '../scores/nplikeness.ts';
import type { QedData } from '../scores/qed.ts';
import { parseSaTable } from '../scores/sascore.ts';
import { parsePains, type PainsEntry } from '../filters/pains.ts';
import type { DescriptorTables } from '../descriptors/descriptors.ts';

const dataFile = (name: string) => new URL(`../data/${name}`, import.meta.url);
const readGzip = (name: string) => gunzipSync(readFileSync(dataFile(name))).toString('utf8');

let npModelCache: FragmentTable | undefined;
/** The NP-likeness model (266k environment scores), loaded on first use. */
export function npModel(): FragmentTable {
  npModelCache ??= parseNpModel(readGzip('nplikeness.model.tsv.gz'));
  return npModelCache;
}

let qedCache: QedData | undefined;
export function qedData(): QedData {
  qedCache ??= JSON.parse(readFileSync(dataFile('qed.json'), 'utf8')) as QedData;
  return qedCache;
}

/** The tables of the COCONUT descriptor set (QED parameters and NP-likeness model). */
export function descriptorTables(): DescriptorTables {
  return { qed: qedData(), np: npModel() };
}

let saCache: FragmentTable | undefined;
/** The SA-score fragment table (705k environment scores), loaded on first use. */
export function saTable(): FragmentTable {
  saCache ??= parseSaTable(readGzip('sascore.fpscores.tsv.gz'));
  return saCache;
}

let painsCache: PainsEntry[] | undefined;
export function painsEntries(): PainsEntry[] {
  painsCache ??= parsePains(readFileSync(dataFile('pains.wehi_pains.csv'), 'utf8'));
  return painsCache;
}

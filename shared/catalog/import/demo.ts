/**
 * The shipped demo data set (shared/catalog/data, LOTUS CC0 + COCONUT collection names CC BY 4.0)
 * in load order: collection tables first, so collections get their titles, URLs and
 * descriptions from them, then the curated validated set, then the LOTUS export sample.
 * On an empty store this gives 1,242 molecules, 1,234 organisms, 1,348 citations and 93
 * collections (see shared/catalog/data/README.md).
 */
import { fileURLToPath } from 'node:url';
import type { CatalogStore } from '../store/types.ts';
import { importFile, type ImportOptions, type ImportSummary } from './run.ts';

export const DEMO_FILES: readonly string[] = [
  'lotus_source_databases.csv.gz',
  'coconut_collections.csv.gz',
  'lotus_manually_validated_413.tsv.gz',
  'lotus_sample_1000.tsv.gz',
].map((f) => fileURLToPath(new URL(`../data/${f}`, import.meta.url)));

/** Imports every demo file in order; `onFile` hears each file's summary. */
export async function importDemo(
  store: CatalogStore,
  opts: ImportOptions & { onFile?: (path: string, summary: ImportSummary) => void },
): Promise<ImportSummary[]> {
  const out: ImportSummary[] = [];
  for (const path of DEMO_FILES) {
    const summary = await importFile(store, path, opts);
    opts.onFile?.(path, summary);
    out.push(summary);
  }
  return out;
}

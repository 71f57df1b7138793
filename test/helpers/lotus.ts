/**
 * The LOTUS demo files of api/catalog/data read as plain rows, the independent reference of the
 * taxonomy tests (never through natprod's importer).
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';

/** A TSV file of api/catalog/data as objects; R's quoted fields (`"c(""1"", ""2"")"`) unquoted. */
export function readTsv(file: string): Record<string, string>[] {
  const text = gunzipSync(readFileSync(new URL(`../../api/catalog/data/${file}`, import.meta.url))).toString('utf8');
  const [head, ...lines] = text.split('\n').filter((l) => l.trim() !== '');
  const cols = head!.split('\t');
  const unquote = (s: string) => (s.length >= 2 && s.startsWith('"') && s.endsWith('"') ? s.slice(1, -1).replaceAll('""', '"') : s);
  return lines.map((l) => {
    const f = l.split('\t').map(unquote);
    return Object.fromEntries(cols.map((c, i) => [c, f[i] ?? '']));
  });
}

/** LOTUS's empty values (blank or `NA`) as null, the rest trimmed. */
export const na = (s: string | undefined) => (s === undefined || s.trim() === '' || s.trim() === 'NA' ? null : s.trim());

/** natprod's lineage ranks, in LOTUS's order. */
export const LOTUS_RANKS = ['domain', 'kingdom', 'phylum', 'class', 'order', 'family', 'tribe', 'genus', 'species', 'variety'] as const;
export type Lineage = Record<(typeof LOTUS_RANKS)[number], string | null>;

/** A lotus_sample_1000 row's lineage: its columns organism_taxonomy_01domain .. 10varietas. */
export function sampleLineage(r: Record<string, string>): Lineage {
  const cols = ['01domain', '02kingdom', '03phylum', '04class', '05order', '06family', '07tribe', '08genus', '09species', '10varietas'];
  return Object.fromEntries(LOTUS_RANKS.map((f, i) => [f, na(r[`organism_taxonomy_${cols[i]}`])])) as Lineage;
}

/** A lotus_manually_validated_413 row's lineage: the taxon at each rank of the authority's parallel lists (taxa, ranks). */
export function validatedLineage(r: Record<string, string>): Lineage {
  const taxa = r.organismCleaned_dbTaxoTaxonomy!.split('|');
  const ranks = r.organismCleaned_dbTaxoTaxonRanks!.split('|').map((x) => x.trim().toLowerCase());
  const at = (...names: string[]) => {
    const i = names.map((n) => ranks.indexOf(n)).find((k) => k >= 0);
    return i === undefined ? null : na(taxa[i]);
  };
  return {
    domain: at('domain', 'superkingdom'), kingdom: at('kingdom'), phylum: at('phylum', 'division'), class: at('class'), order: at('order'),
    family: at('family'), tribe: at('tribe'), genus: at('genus'), species: at('species'), variety: at('variety', 'varietas'),
  };
}

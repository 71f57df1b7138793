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

/**
 * Readers of the committed reference tables in test/fixtures (used by tests and benchmarks).
 * Rows come back keyed by the header line.
 */
import { readFileSync } from 'node:fs';

const FIXTURES = new URL('../fixtures/', import.meta.url);

/** A fixture file's text. */
export const fixture = (name: string): string => readFileSync(new URL(name, FIXTURES), 'utf8');

/** Rows of a TSV (comment lines start with #; the first remaining line is the header). */
export function tsv(text: string): Record<string, string>[] {
  const lines = text.split('\n').filter((l) => l && !l.startsWith('#'));
  const head = lines[0].split('\t');
  return lines.slice(1).map((l) => Object.fromEntries(l.split('\t').map((v, i) => [head[i], v])));
}

/** Rows of an RFC 4180 CSV (quoted fields may hold commas, quotes and newlines). */
export function csv(text: string): Record<string, string>[] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else if (c !== '\r') field += c;
  }
  if (field || row.length) {
    row.push(field);
    rows.push(row);
  }
  const [head, ...body] = rows;
  return body.map((r) => Object.fromEntries(head.map((h, i) => [h, r[i] ?? ''])));
}

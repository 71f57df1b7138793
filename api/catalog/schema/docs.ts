/**
 * The fields tables of docs/catalog.md (between the `generated:catalog-fields` markers), written
 * from the resource declarations by `npm run docs:tables` (docs/tables.ts).
 */
import type { FieldSpec, IndexSpec, ResourceSchema } from './define.ts';

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\s+/g, ' ').trim();

function indexes(spec: IndexSpec | undefined): string {
  if (!spec) return '';
  const s = spec === true ? { embedded: 'index', mongo: 'index' } : spec;
  const out: string[] = [];
  if (s.embedded === 'index') out.push('nedb');
  if (s.embedded === 'column') out.push('nedb column');
  if (s.mongo === 'index') out.push('mongo');
  if (s.mongo === 'unique') out.push('mongo unique');
  return out.join(', ');
}

function writes(f: FieldSpec): string {
  const out: string[] = [];
  if (f.visibility === 'writeOnly') out.push('write-only');
  if (f.visibility === 'internal') out.push('internal');
  if (f.readOnly) out.push('read-only');
  if (f.derived) out.push('derived');
  if (f.stored) out.push(`stored as \`${f.stored}\``);
  return out.join(', ');
}

/** One resource's section: its description and a table of its fields in output order. */
export function fieldsTable(s: ResourceSchema): string {
  const rows = Object.entries(s.fields).map(([k, f]) =>
    `| \`${k}\` | ${f.type} | ${f.default === undefined ? '' : `\`${JSON.stringify(f.default)}\``} | ${writes(f)} | ${indexes(f.index)} | ${f.export ?? ''} | ${cell(f.doc)} |`);
  const rels = (s.relations ?? []).map((r) => `\`${r.name}\` (${r.kind} ${r.target})`).join(', ');
  return [
    `### ${s.name}`,
    '',
    cell(s.doc) + (rels ? ` Relations: ${rels}.` : ''),
    '',
    '| field | type | default | writes | indexes | export | description |',
    '|---|---|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}

/** Every resource's section. */
export const fieldsTables = (schemas: ResourceSchema[]): string => schemas.map(fieldsTable).join('\n\n');

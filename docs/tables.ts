/**
 * The README's operation table and counts, generated from the operation registry so they cannot
 * drift: `npm run docs:tables` rewrites the README between the `generated:ops` markers (and the
 * operation counts marked `generated:count`); test/unit/readme.test.ts fails when the README
 * differs from what this prints.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { OPERATIONS } from '../shared/ops/index.ts';

export const README = new URL('../README.md', import.meta.url);

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\s+/g, ' ').trim();

export function operationTable(): string {
  const rows = OPERATIONS.map((op) => `| \`${op.name}\` | ${op.method} \`${op.path}\` | ${cell(op.summary)} | ${op.mode === 'long' ? 'job' : 'direct'} |`);
  return ['| tool | method and path | summary | answer |', '|---|---|---|---|', ...rows].join('\n');
}

/** The README with its generated parts replaced by what the registry says now. */
export function renderReadme(text: string): string {
  const table = /(<!-- generated:ops:start[^>]*-->\n)[\s\S]*?(\n<!-- generated:ops:end -->)/;
  if (!table.test(text)) throw new Error('README.md has no <!-- generated:ops:start --> ... <!-- generated:ops:end --> block');
  return text
    .replace(table, (_m, a: string, b: string) => `${a}${operationTable()}${b}`)
    .replace(/<!-- generated:count -->\d+<!-- \/generated:count -->/g, `<!-- generated:count -->${OPERATIONS.length}<!-- /generated:count -->`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const before = readFileSync(README, 'utf8');
  const after = renderReadme(before);
  if (after !== before) writeFileSync(README, after);
  console.log(after === before ? 'README.md is up to date' : 'README.md updated');
}

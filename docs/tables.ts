/**
 * The documentation's generated parts, written from the operation registry so they cannot drift:
 * the README's operation table (between the `generated:ops` markers), every operation count
 * marked `<!-- generated:count -->N<!-- /generated:count -->` in the README and in docs/*.md, and
 * the count in package.json's description; and the catalog's fields tables in docs/catalog.md
 * (between the `generated:catalog-fields` markers), from the resource declarations in
 * api/catalog/schema/. `npm run docs:tables` rewrites what is stale;
 * `npm run docs:tables -- --check` only lists it and exits 1 (test/unit/readme.test.ts runs it).
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { OPERATIONS } from '../shared/ops/index.ts';
import { fieldsTables } from '../api/catalog/schema/docs.ts';
import { SCHEMAS } from '../api/catalog/schema/resources.ts';

export const README = new URL('../README.md', import.meta.url);
const DOCS = new URL('./', import.meta.url);
const PACKAGE = new URL('../package.json', import.meta.url);

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\s+/g, ' ').trim();

export function operationTable(): string {
  const rows = OPERATIONS.map((op) => `| \`${op.name}\` | ${op.method} \`${op.path}\` | ${cell(op.summary)} | ${op.mode === 'long' ? 'job' : 'direct'} |`);
  return ['| tool | method and path | summary | answer |', '|---|---|---|---|', ...rows].join('\n');
}

/** A count marker with any number in it. */
export const COUNT_MARKER = /<!-- generated:count -->\d+<!-- \/generated:count -->/g;

/** Every operation count marker set to the registry's count. */
export function renderCounts(text: string): string {
  return text.replace(COUNT_MARKER, `<!-- generated:count -->${OPERATIONS.length}<!-- /generated:count -->`);
}

/** The README with its generated parts replaced by what the registry says now. */
export function renderReadme(text: string): string {
  const table = /(<!-- generated:ops:start[^>]*-->\n)[\s\S]*?(\n<!-- generated:ops:end -->)/;
  if (!table.test(text)) throw new Error('README.md has no <!-- generated:ops:start --> ... <!-- generated:ops:end --> block');
  return renderCounts(text.replace(table, (_m, a: string, b: string) => `${a}${operationTable()}${b}`));
}

/** package.json with the count in its description ("a 34-operation chemistry service") set. */
export function renderPackage(text: string): string {
  return text.replace(/("description": "[^"\n]*?\b)\d+(-operation\b)/, `$1${OPERATIONS.length}$2`);
}

export const CATALOG = new URL('./catalog.md', import.meta.url);

/** docs/catalog.md with its fields tables written from the resource declarations (and its counts). */
export function renderCatalog(text: string): string {
  const block = /(<!-- generated:catalog-fields:start[^>]*-->\n)[\s\S]*?(<!-- generated:catalog-fields:end -->)/;
  if (!block.test(text)) throw new Error('docs/catalog.md has no <!-- generated:catalog-fields:start --> ... <!-- generated:catalog-fields:end --> block');
  return renderCounts(text.replace(block, (_m, a: string, b: string) => `${a}${fieldsTables(Object.values(SCHEMAS))}\n${b}`));
}

/** The pages of docs/ (docs/spec/ holds the original services' specifications, not ours). */
export const docPages = (): URL[] => readdirSync(DOCS).filter((f) => f.endsWith('.md')).map((f) => new URL(f, DOCS));

/** Every file with generated parts, as it is and as the registry would write it. */
export function generatedFiles(): { file: URL; before: string; after: string }[] {
  const files: [URL, (text: string) => string][] = [[README, renderReadme], [PACKAGE, renderPackage], ...docPages().map((f): [URL, (t: string) => string] => [f, f.href === CATALOG.href ? renderCatalog : renderCounts])];
  return files.map(([file, render]) => {
    const before = readFileSync(file, 'utf8');
    return { file, before, after: render(before) };
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const check = process.argv.includes('--check');
  const stale = generatedFiles().filter((f) => f.after !== f.before);
  for (const f of stale) {
    const name = f.file.pathname.replace(new URL('..', import.meta.url).pathname, '');
    if (check) console.error(`${name} is stale: run \`npm run docs:tables\``);
    else {
      writeFileSync(f.file, f.after);
      console.log(`${name} updated`);
    }
  }
  if (stale.length === 0) console.log('the generated parts of README.md, docs/*.md (catalog fields tables included) and package.json are up to date');
  if (check && stale.length) process.exitCode = 1;
}

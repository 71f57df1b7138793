/**
 * The generated parts of the documentation are what the registry says (npm run docs:tables): the
 * README's operation table, every operation count in the README and docs/*.md, and package.json's
 * description; and no operation or tool count is written by hand outside the count markers.
 */
import t from 'tap';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { COUNT_MARKER, docPages, generatedFiles, README } from '../../docs/tables.ts';
import { OPERATIONS } from '../../shared/ops/index.ts';

const ROOT = new URL('../..', import.meta.url).pathname;

t.test('README tables are generated from the registry and current', async (t) => {
  const text = readFileSync(README, 'utf8');
  for (const f of generatedFiles()) t.equal(f.after, f.before, `${f.file.pathname.replace(ROOT, '')} is stale: run \`npm run docs:tables\``);
  for (const op of OPERATIONS) t.ok(text.includes(`| \`${op.name}\` | ${op.method} \`${op.path}\``), `${op.name} listed`);
  t.ok((text.match(COUNT_MARKER) ?? []).length >= 4, 'the README marks its operation counts');
  const pkg = JSON.parse(readFileSync(new URL('package.json', `file://${ROOT}`), 'utf8')) as { description: string };
  t.match(pkg.description, `${OPERATIONS.length}-operation`, 'package.json describes the registry count');
});

t.test('`npm run docs:tables -- --check` passes', async (t) => {
  const run = promisify(execFile);
  const { stdout } = await run(process.execPath, ['--import', 'tsx', 'docs/tables.ts', '--check'], { cwd: ROOT });
  t.match(stdout, /up to date/);
});

t.test('no operation count outside the generated markers', async (t) => {
  // A count of operations or tools written by hand goes stale when an operation is added.
  const phrase = /\b\d+(?:-operation\b| (?:chemistry |registry |MCP )?(?:operations|tools)\b)/g;
  for (const file of [README, ...docPages()]) {
    const text = readFileSync(file, 'utf8').replace(COUNT_MARKER, '<count>');
    t.same(text.match(phrase) ?? [], [], `${file.pathname.replace(ROOT, '')}: counts outside <!-- generated:count --> markers`);
  }
  // In the README every standalone occurrence of the current count is a marked one.
  const readme = readFileSync(README, 'utf8').replace(COUNT_MARKER, '<count>').replace(/<!-- generated:ops:start[\s\S]*?generated:ops:end -->/, '');
  t.same(readme.match(new RegExp(`(?<![\\d.,])${OPERATIONS.length}(?![\\d.,])`, 'g')) ?? [], [], `README: the number ${OPERATIONS.length} written by hand`);
});

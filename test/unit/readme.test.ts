/** The README's operation table and counts are what the registry says (npm run docs:tables). */
import t from 'tap';
import { readFileSync } from 'node:fs';
import { README, renderReadme } from '../../docs/tables.ts';
import { OPERATIONS } from '../../shared/ops/index.ts';

t.test('README tables are generated from the registry and current', async (t) => {
  const text = readFileSync(README, 'utf8');
  t.equal(renderReadme(text), text, 'README.md is stale: run `npm run docs:tables`');
  for (const op of OPERATIONS) t.ok(text.includes(`| \`${op.name}\` | ${op.method} \`${op.path}\``), `${op.name} listed`);
});

/**
 * Every environment variable the configuration schema reads (shared/config.ts) is listed in
 * `.env.example` and in the README's configuration table, and neither lists one it does not read.
 */
import t from 'tap';
import { readFileSync } from 'node:fs';

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');

/** The top-level keys of `const schema = z.object({ ... })`, written one per line at two spaces. */
function schemaVariables(): string[] {
  const source = read('shared/config.ts');
  const start = source.indexOf('const schema = z.object({');
  const end = source.indexOf('\n});', start);
  return [...source.slice(start, end).matchAll(/^ {2}([A-Z][A-Z0-9_]*):/gm)].map((m) => m[1]);
}

const variables = schemaVariables();

t.test('the schema is read', async (t) => {
  t.ok(variables.length >= 30, `${variables.length} variables`);
  t.ok(variables.includes('PORT') && variables.includes('LOG_REQUESTS'));
});

t.test('.env.example lists every variable, and only those', async (t) => {
  const listed = [...read('.env.example').matchAll(/^# ([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]);
  t.same(variables.filter((v) => !listed.includes(v)), [], 'variables missing from .env.example');
  t.same(listed.filter((v) => !variables.includes(v)), [], 'variables in .env.example the configuration does not read');
});

t.test("the README's configuration table lists every variable, and only those", async (t) => {
  const readme = read('README.md');
  const table = readme.slice(readme.indexOf('## Configuration'), readme.indexOf('\n## ', readme.indexOf('## Configuration') + 1));
  const rows = [...table.matchAll(/^\| ([^|]+) \|/gm)].map((m) => m[1]);
  const listed = rows.flatMap((cell) => [...cell.matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((m) => m[1]));
  t.same(variables.filter((v) => !listed.includes(v)), [], 'variables missing from the README table');
  t.same(listed.filter((v) => !variables.includes(v)), [], 'variables in the README table the configuration does not read');
});

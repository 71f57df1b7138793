/** Source files stay small enough to read in one sitting: at most 300 lines, or a reason at the top. */
import t from 'tap';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = new URL('../..', import.meta.url).pathname;

function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const rel = join(dir, name);
    if (statSync(join(ROOT, rel)).isDirectory()) return name === 'data' ? [] : sources(rel);
    return rel.endsWith('.ts') ? [rel] : [];
  });
}

t.test('no source file over 300 lines without a reason at its top', async (t) => {
  const files = ['api', 'shared', 'workers'].flatMap(sources);
  t.ok(files.length > 100, `${files.length} files checked`);
  for (const f of files) {
    const text = readFileSync(join(ROOT, f), 'utf8');
    const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
    if (lines > 300) t.match(text.split('\n').slice(0, 3).join('\n'), /Over 300 lines on purpose: \S/, `${f} (${lines} lines) says why`);
  }
});

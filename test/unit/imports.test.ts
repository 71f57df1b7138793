/**
 * The layout's import rules (docs/architecture.md, "Layout"), checked on every source file:
 * - `shared/` imports neither `api/` nor `workers/`; `workers/` does not import `api/`;
 * - the operation registry (`shared/ops/index.ts` and everything it imports by value) is pure
 *   contract: no task module (`*.tasks.ts`, `tasks.ts`), no chemistry (`shared/chem/`), nothing
 *   that starts threads (`shared/threads/`);
 * - the api process loads no RDKit: nothing reachable by value from `api/server.ts` imports
 *   `@rdkit/rdkit` (chemistry threads load it from their own bundle).
 * Type-only imports (`import type`, `export type`, or every name marked `type`) are free: they
 * vanish when compiled. A self-check feeds the walker a forbidden arrow to show the test can fail.
 */
import t from 'tap';
import { existsSync, readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

interface Edge {
  from: string;
  to: string;
  /** A value import (false: types only). */
  value: boolean;
}

const STATEMENT = /(?:^|[;\n])\s*(import|export)\s+(type\s+)?([^'";]*?)\s*from\s*['"]([^'"]+)['"]|(?:^|[;\n])\s*import\s*['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;

/** The import edges of one source text (comments removed first). */
export function edgesOf(file: string, text: string): Edge[] {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
  const out: Edge[] = [];
  for (const m of code.matchAll(STATEMENT)) {
    const spec = m[4] ?? m[5] ?? m[6]!;
    let value = true;
    if (m[4] !== undefined) {
      const clause = m[3]!.trim();
      const braces = /^\{([\s\S]*)\}$/.exec(clause);
      if (m[2]) value = false;
      else if (braces) {
        const names = braces[1]!.split(',').map((s) => s.trim()).filter(Boolean);
        value = names.length === 0 || names.some((n) => !n.startsWith('type '));
      }
    }
    const to = spec.startsWith('.') ? relative(ROOT, resolve(dirname(join(ROOT, file)), spec)) : spec;
    out.push({ from: file, to, value });
  }
  return out;
}

function sources(): string[] {
  return execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', 'api', 'shared', 'workers'], { cwd: ROOT, encoding: 'utf8' })
    .split('\n')
    .filter((f) => /\.(ts|mjs)$/.test(f) && existsSync(join(ROOT, f)));
}

const files = sources();
const edges = new Map(files.map((f) => [f, edgesOf(f, readFileSync(join(ROOT, f), 'utf8'))]));

/** Files reachable from `start` through value imports of repository files. */
function valueClosure(start: string, graph: Map<string, Edge[]>): Set<string> {
  const seen = new Set([start]);
  const todo = [start];
  while (todo.length) {
    for (const e of graph.get(todo.pop()!) ?? []) {
      if (!e.value || seen.has(e.to) || !graph.has(e.to)) continue;
      seen.add(e.to);
      todo.push(e.to);
    }
  }
  return seen;
}

export function forbiddenArrows(graph: Map<string, Edge[]>): string[] {
  const bad: string[] = [];
  const top = (p: string) => p.split('/')[0];
  for (const [file, es] of graph) {
    for (const e of es) {
      if (!e.value && !['api', 'workers'].includes(top(e.to)!)) continue;
      if (top(file) === 'shared' && ['api', 'workers'].includes(top(e.to)!)) bad.push(`${file} → ${e.to}: shared/ imports no process folder`);
      if (top(file) === 'workers' && top(e.to) === 'api') bad.push(`${file} → ${e.to}: workers/ does not import api/`);
    }
  }
  for (const f of valueClosure('shared/ops/index.ts', graph)) {
    for (const e of graph.get(f) ?? []) {
      if (!e.value) continue;
      if (/\.tasks\.ts$|^shared\/ops\/tasks\.ts$/.test(e.to)) bad.push(`${f} → ${e.to}: a registry file imports a task module by value`);
      if (e.to.startsWith('shared/chem/')) bad.push(`${f} → ${e.to}: a registry file imports chemistry by value`);
      if (e.to.startsWith('shared/threads/')) bad.push(`${f} → ${e.to}: a registry file imports the thread pool`);
    }
  }
  for (const f of valueClosure('api/server.ts', graph)) {
    for (const e of graph.get(f) ?? []) if (e.value && e.to === '@rdkit/rdkit') bad.push(`${f} → @rdkit/rdkit: the api process loads RDKit`);
  }
  return bad;
}

t.test('the walker reads the import forms in use', async (t) => {
  const es = edgesOf('shared/ops/x.ts', [
    "import { z } from 'zod';",
    "import type { A } from './a.ts';",
    "import { type B, type C } from './b.ts';",
    "import { type D, e } from './d.ts';",
    "export { f } from '../chem/f.ts';",
    "export type { G } from './g.tasks.ts';",
    "// import { h } from './h.ts';",
    "const m = await import('../../api/m.ts');",
    "import './side.ts';",
  ].join('\n'));
  t.same(
    es.map((e) => [e.to, e.value]),
    [['zod', true], ['shared/ops/a.ts', false], ['shared/ops/b.ts', false], ['shared/ops/d.ts', true], ['shared/chem/f.ts', true], ['shared/ops/g.tasks.ts', false], ['api/m.ts', true], ['shared/ops/side.ts', true]],
  );
});

t.test('the walker finds forbidden arrows (self-check)', async (t) => {
  const graph = new Map(edges);
  graph.set('shared/ops/index.ts', [...(graph.get('shared/ops/index.ts') ?? []), { from: 'shared/ops/index.ts', to: 'shared/ops/convert.tasks.ts', value: true }]);
  graph.set('shared/x.ts', [{ from: 'shared/x.ts', to: 'api/services.ts', value: false }]);
  graph.set('workers/x.ts', [{ from: 'workers/x.ts', to: 'api/app.ts', value: true }]);
  const bad = forbiddenArrows(graph);
  t.ok(bad.some((b) => b.includes('imports a task module')), 'a registry file importing a task module');
  t.ok(bad.some((b) => b.startsWith('shared/x.ts')), 'shared/ → api/, even for types');
  t.ok(bad.some((b) => b.startsWith('workers/x.ts')), 'workers/ → api/');
});

t.test('the repository keeps the rules', async (t) => {
  t.ok(files.length > 200, `${files.length} source files read`);
  t.ok(valueClosure('shared/ops/index.ts', edges).size > 10, 'the registry closure is walked');
  t.same(forbiddenArrows(edges), [], 'no forbidden import');
});

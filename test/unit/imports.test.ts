/**
 * The layout's import rules (docs/architecture.md, "Layout"), checked on every source file:
 * - `shared/` imports neither `api/` nor `workers/`; `workers/` does not import `api/`;
 * - the operation registry (`shared/ops/index.ts` and everything it imports by value) is pure
 *   contract: no task module (`*.tasks.ts`, `tasks.ts`), no chemistry (`shared/chem/`), nothing
 *   that starts threads (`shared/threads/`);
 * - the api process loads no RDKit: nothing reachable by value from `api/server.ts` imports
 *   `@rdkit/rdkit` (chemistry threads load it from their own bundle).
 * Type-only imports (`import type`, `export type`, or every name marked `type`) are free for these:
 * they vanish when compiled. The layering of `shared/` counts them too:
 * - `shared/chem/` imports nothing of `shared/` outside itself but the base files (BASE:
 *   `shared/*.ts` modules that import only each other), and those import nothing else of `shared/`;
 * - `shared/` has no import cycle, type imports included;
 * and no process folder (`api/`, `shared/`, `workers/`) has a cycle of value imports (a module
 * evaluated before what it imports, whose bindings are then undefined at load). A folder with one
 * entry point (ENTRY_POINTS: catalog search) is reached from the process folders outside it only
 * through that file, type imports included (tests and benchmarks may reach inside).
 * Self-checks feed the walker a forbidden arrow or cycle to show each rule can fail.
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

/**
 * The base of `shared/`: the top-level modules chemistry may import (errors and the size limits
 * that the registry and the threads check alike). Each imports only other base files.
 */
export const BASE = new Set(['shared/errors.ts', 'shared/structure-limits.ts', 'shared/png-limits.ts']);

/** Arrows out of the chemistry layer (and out of the base), type imports included. */
export function layerArrows(graph: Map<string, Edge[]>): string[] {
  const bad: string[] = [];
  for (const [file, es] of graph) {
    for (const e of es) {
      if (!e.to.startsWith('shared/')) continue;
      const kind = e.value ? '' : ' (type import)';
      if (file.startsWith('shared/chem/') && !e.to.startsWith('shared/chem/') && !BASE.has(e.to)) {
        bad.push(`${file} → ${e.to}${kind}: shared/chem/ imports only shared/chem/ and the base files (${[...BASE].join(', ')})`);
      }
      if (BASE.has(file) && !BASE.has(e.to)) bad.push(`${file} → ${e.to}${kind}: a base file imports only base files`);
    }
  }
  return [...new Set(bad)];
}

/** Strongly connected components of more than one file (Tarjan), each sorted. */
function components(nodes: string[], next: (n: string) => string[]): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string) => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of next(v)) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const c: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      c.push(w);
    } while (w !== v);
    if (c.length > 1) out.push(c.sort());
  }
  for (const n of nodes) if (!index.has(n)) visit(n);
  return out;
}

/** One cycle through `start` inside component `members` (breadth first: a shortest one). */
function cycleThrough(start: string, members: Set<string>, next: (n: string) => string[]): string[] {
  const parent = new Map<string, string>();
  const frontier = [start];
  while (frontier.length) {
    const v = frontier.shift()!;
    for (const w of next(v)) {
      if (!members.has(w)) continue;
      if (w === start) {
        const path = [v];
        while (path[0] !== start) path.unshift(parent.get(path[0])!);
        return [...path, start];
      }
      if (parent.has(w)) continue;
      parent.set(w, v);
      frontier.push(w);
    }
  }
  return [start];
}

/**
 * Import cycles among the files `inScope` accepts: one message per cycle (strongly connected
 * component), naming its files and one loop through them. `valueOnly`: type imports are left out.
 */
export function importCycles(graph: Map<string, Edge[]>, inScope: (f: string) => boolean, valueOnly: boolean): string[] {
  const next = (f: string) => [...new Set((graph.get(f) ?? []).filter((e) => (e.value || !valueOnly) && inScope(e.to) && graph.has(e.to)).map((e) => e.to))];
  return components([...graph.keys()].filter(inScope), next).map((c) => {
    const loop = cycleThrough(c[0]!, new Set(c), next);
    // A loop of k files lists k + 1 (back to its start); when it misses some, list them all.
    const all = loop.length > c.length ? '' : ` (component: ${c.join(', ')})`;
    return `${valueOnly ? 'value-import' : 'import'} cycle of ${c.length} files: ${loop.join(' → ')}${all}`;
  });
}

/** Folders entered through one file only: the folder, and its entry point. */
export const ENTRY_POINTS: Record<string, string> = { 'api/catalog/search/': 'api/catalog/search/index.ts' };

/** Arrows from a process folder into a folder of ENTRY_POINTS that miss its entry point. */
export function entryArrows(graph: Map<string, Edge[]>): string[] {
  const bad: string[] = [];
  for (const [file, es] of graph) {
    if (!/^(api|shared|workers)\//.test(file)) continue;
    for (const e of es) {
      for (const [folder, entry] of Object.entries(ENTRY_POINTS)) {
        if (e.to.startsWith(folder) && !file.startsWith(folder) && e.to !== entry) bad.push(`${file} → ${e.to}: ${folder} is imported through ${entry} only`);
      }
    }
  }
  return bad;
}

const inShared = (f: string) => f.startsWith('shared/');
const inProcessFolders = (f: string) => /^(api|shared|workers)\//.test(f);

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

/** `graph` with one more arrow. */
function withEdge(graph: Map<string, Edge[]>, from: string, to: string, value: boolean): Map<string, Edge[]> {
  const out = new Map(graph);
  out.set(from, [...(graph.get(from) ?? []), { from, to, value }]);
  return out;
}

t.test('the walker finds arrows out of the chemistry layer (self-check)', async (t) => {
  const up = layerArrows(withEdge(edges, 'shared/chem/core/formula.ts', 'shared/ops/types.ts', false));
  t.same(up, ['shared/chem/core/formula.ts → shared/ops/types.ts (type import): shared/chem/ imports only shared/chem/ and the base files (shared/errors.ts, shared/structure-limits.ts, shared/png-limits.ts)'], 'shared/chem/ → shared/ops/, even for types');
  t.same(layerArrows(withEdge(edges, 'shared/chem/depict/png.ts', 'shared/metrics.ts', true)).length, 1, 'shared/chem/ → a top-level file that is not base');
  t.same(layerArrows(withEdge(edges, 'shared/errors.ts', 'shared/log.ts', false)), ['shared/errors.ts → shared/log.ts (type import): a base file imports only base files'], 'a base file → a file outside the base');
  t.same(layerArrows(withEdge(edges, 'shared/chem/core/formula.ts', 'shared/structure-limits.ts', true)), [], 'shared/chem/ → a base file is allowed');
});

t.test('the walker finds import cycles (self-check)', async (t) => {
  const typeLoop = withEdge(edges, 'shared/chem/core/formula.ts', 'shared/chem/core/morgan-env.ts', false);
  t.same(importCycles(typeLoop, inShared, false), ['import cycle of 2 files: shared/chem/core/formula.ts → shared/chem/core/morgan-env.ts → shared/chem/core/formula.ts'], 'a type-only cycle in shared/');
  t.same(importCycles(typeLoop, inProcessFolders, true), [], 'which is no value-import cycle');
  const long = importCycles(withEdge(edges, 'shared/structure-search/contract.ts', 'shared/structure-search/service.ts', false), inShared, false);
  t.equal(long.length, 1, 'a longer cycle in shared/ is one cycle');
  t.match(long[0], /^import cycle of 4 files: (shared\/\S+ → )+shared\/\S+ \(component: /, 'named by a loop through its files');
  t.match(long[0], 'shared/structure-search/contract.ts → shared/structure-search/service.ts', 'the loop takes the injected arrow');
  t.match(long[0], 'shared/structure-search/scan-plan.ts', 'the component lists the files off that loop');
  const valueLoop = withEdge(edges, 'api/catalog/reports/reports.ts', 'api/catalog/mutate/mutate-parse.ts', true);
  t.same(importCycles(valueLoop, inProcessFolders, true), ['value-import cycle of 2 files: api/catalog/mutate/mutate-parse.ts → api/catalog/reports/reports.ts → api/catalog/mutate/mutate-parse.ts'], 'a value-import cycle in api/');
  t.same(importCycles(withEdge(edges, 'api/catalog/reports/reports.ts', 'api/catalog/mutate/mutate-parse.ts', false), inProcessFolders, true), [], 'the same arrow as a type import is no runtime cycle');
});

t.test('the walker finds arrows that miss an entry point (self-check)', async (t) => {
  t.same(
    entryArrows(withEdge(edges, 'api/catalog/plugin.ts', 'api/catalog/search/coconut/answer.ts', false)),
    ['api/catalog/plugin.ts → api/catalog/search/coconut/answer.ts: api/catalog/search/ is imported through api/catalog/search/index.ts only'],
    'a type import past the entry point',
  );
  t.same(entryArrows(withEdge(edges, 'api/catalog/search/coconut/answer.ts', 'api/catalog/search/page.ts', true)), [], 'files inside the folder import each other');
  t.same(entryArrows(withEdge(edges, 'api/mcp/tools.ts', 'api/catalog/search/index.ts', true)), [], 'the entry point itself');
});

t.test('the repository keeps the rules', async (t) => {
  t.ok(files.length > 200, `${files.length} source files read`);
  t.ok(valueClosure('shared/ops/index.ts', edges).size > 10, 'the registry closure is walked');
  t.same(forbiddenArrows(edges), [], 'no forbidden import');
  t.same(layerArrows(edges), [], 'shared/chem/ imports only itself and the base');
  t.same(importCycles(edges, inShared, false), [], 'no import cycle in shared/, type imports included');
  t.same(importCycles(edges, inProcessFolders, true), [], 'no value-import cycle in api/, shared/, workers/');
  t.same(entryArrows(edges), [], 'every folder with an entry point is entered through it');
});

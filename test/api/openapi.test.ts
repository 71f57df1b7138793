/**
 * The OpenAPI document (issue 41): Redocly's recommended rules pass, with the exceptions of
 * .redocly.lint-ignore.yaml; every route the api registers is documented or answers 405; and the
 * answer check that every test app runs (test/helpers/openapi-check.ts) can fail.
 */
import t from 'tap';
import { resolve } from 'node:path';
import { createConfig, lintFromString, loadConfig } from '@redocly/openapi-core';
import { build } from '../helpers/app.ts';
import { checkAnswer } from '../helpers/openapi-check.ts';
import { buildOpenApi } from '../../api/openapi/index.ts';
import { ensureUser, issueToken } from '../../api/catalog/auth/auth.ts';

const ROOT = resolve(import.meta.dirname, '../..');

t.test("Redocly's recommended rules pass (justified exceptions aside)", async (t) => {
  const doc = buildOpenApi('1.0.0');
  const config = await loadConfig({ configPath: resolve(ROOT, 'redocly.yaml') });
  const problems = await lintFromString({ source: JSON.stringify(doc), absoluteRef: resolve(ROOT, 'openapi.json'), config });
  const open = problems.filter((p) => !p.ignored).map((p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`);
  t.same(open, [], 'no problem outside .redocly.lint-ignore.yaml');
  t.ok(problems.some((p) => p.ignored), 'the exceptions file is read (its problems are marked ignored)');
  // The same linter does find problems: the recommended rules on a document missing its error answers.
  const bare = structuredClone(doc) as { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
  for (const c of Object.keys(bare.paths['/api/search'].post.responses)) if (c.startsWith('4')) delete bare.paths['/api/search'].post.responses[c];
  const found = await lintFromString({ source: JSON.stringify(bare), absoluteRef: resolve(ROOT, 'openapi.json'), config: await createConfig({ extends: ['recommended'] }) });
  t.ok(found.some((p) => p.ruleId === 'operation-4xx-response' && p.location[0]?.pointer === '#/paths/~1api~1search/post/responses'), 'a missing 4xx answer is found');
});

/** Browser pages and static files, not the API: Swagger UI, the 3D viewer's script, Bull Board (distributed mode). */
const NOT_API = [/^\/(latest\/)?docs/, /^\/static\//, /^\/admin\/queues/];

t.test('every route the api registers is in the document, or answers 405', async (t) => {
  const a = (await build(t, 'inline'))!;
  const doc = buildOpenApi('test') as { paths: Record<string, Record<string, unknown>> };
  const routes = listRoutes(a.app);
  const store = a.services.store;
  const admin = await issueToken(store, (await ensureUser(store, 'openapi@example.org', 'admin')).id);
  t.ok(routes.length > 150, `${routes.length} routes registered`);
  const undocumented: string[] = [];
  for (const { method, url } of routes) {
    if (method === 'HEAD' || method === 'OPTIONS' || url === '*' || NOT_API.some((re) => re.test(url))) continue;
    const path = url.replace(/^\/(latest|v1)(?=\/)/, '').replace(/:(\w+)/g, '{$1}').replace(/\/$/, '') || '/';
    if (doc.paths[path]?.[method.toLowerCase()]) continue;
    // The catalog checks the token before the method (api/catalog/plugin.ts: 401 → 404/405 → ...): an admin's token gets past it.
    const res = await a.app.inject({ method: method as 'GET', url: url.replace(/:(\w+)/g, '1'), headers: { authorization: `Bearer ${admin}` }, payload: method === 'GET' ? undefined : {} });
    if (res.statusCode !== 405) undocumented.push(`${method} ${url} → ${res.statusCode}`);
  }
  t.same(undocumented, [], 'no route answers anything but 405 without being documented');
});

/** Every (method, url) of the router, read from Fastify's printed tree with its methods. */
function listRoutes(app: { printRoutes(o: object): string }): { method: string; url: string }[] {
  const out: { method: string; url: string }[] = [];
  const stack: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const m = /^([│ ]*)(?:[├└]── )(.*?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!m) continue;
    const depth = [...m[1]].length / 4;
    stack.length = depth;
    stack[depth] = m[2];
    if (m[3]) for (const method of m[3].split(', ')) out.push({ method, url: stack.join('') });
  }
  return out;
}

t.test('the answer check finds answers the document does not describe', async (t) => {
  t.same(checkAnswer('GET', '/latest/convert/canonicalsmiles?smiles=C', 200, 'application/json', '"C"'), [], 'a documented answer passes');
  t.match(checkAnswer('GET', '/jobs/x', 200, 'application/json', '{"id":"x"}')[0], /must have required property/, 'a job record without its status fails');
  t.match(checkAnswer('GET', '/latest/convert/canonicalsmiles?smiles=C', 200, 'application/json', '{"smiles":"C"}')[0], /must be string/, 'an answer of the wrong type fails');
  t.match(checkAnswer('GET', '/health', 418, 'application/json', '{}')[0], /status not documented/, 'an undocumented status fails');
  t.match(checkAnswer('GET', '/chem/nothing-here', 200, 'application/json', '{}')[0], /path not documented/, 'an undocumented path fails');
  t.match(checkAnswer('GET', '/depict/2D?smiles=C', 200, 'text/csv', 'a,b')[0], /Content-Type text\/csv not documented/, 'an undocumented media type fails');
  t.same(checkAnswer('GET', '/chem/nothing-here', 404, 'application/json', '{"detail":"Not Found"}'), [], "an unknown path's 404 is nobody's operation");
});

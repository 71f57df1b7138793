/**
 * Every answer the test suite receives, checked against the OpenAPI document (issue 41): the
 * route and status must be documented, the Content-Type must be one the document lists for that
 * status, and a JSON body must match the documented schema (Ajv, JSON Schema 2020-12, which
 * OpenAPI 3.1 schemas are). `build()` (app.ts) installs it on every test app and fails the test at
 * teardown with the list of violations; `OPENAPI_REPORT=<file>` appends them to a file instead
 * (to survey the whole suite).
 *
 * Not checked: streamed bodies (exports, dumps: their status and type still are), the pages and
 * static scripts for browsers (`/docs`, `/static/`, Bull Board's `/admin/queues`: not the API),
 * CORS preflights, and 404/405 answers of paths or methods that belong to no documented operation.
 */
import { appendFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { FastifyInstance } from 'fastify';
import { buildOpenApi } from '../../api/openapi/index.ts';

type AjvLike = { addSchema(s: object, key: string): void; getSchema(ref: string): ((v: unknown) => boolean) & { errors?: unknown[] | null } | undefined; compile(s: object): ((v: unknown) => boolean) & { errors?: unknown[] | null } };
const Ajv2020 = createRequire(import.meta.url)('ajv/dist/2020.js').default as new (o: object) => AjvLike;

/** Prefixes under which the chemistry operations are also served (documented once, unprefixed). */
const VERSION_PREFIX = /^\/(latest|v1)(?=\/)/;
/** Browser pages and static files, not the API: Swagger UI, the 3D viewer's script, Bull Board (distributed mode). */
const UNCHECKED = [/^\/(latest\/)?docs(\/|$)/, /^\/static\//, /^\/admin\/queues/];

interface Route {
  re: RegExp;
  path: string;
  ops: Record<string, { responses?: Record<string, { content?: Record<string, unknown> }> }>;
}

let shared: { routes: Route[]; ajv: AjvLike; validators: Map<string, ReturnType<AjvLike['compile']>> } | undefined;

function setup() {
  if (shared) return shared;
  const doc = buildOpenApi('test') as unknown as { paths: Record<string, Route['ops']> };
  const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: false });
  ajv.addSchema(doc, 'openapi');
  const routes = Object.entries(doc.paths)
    .map(([path, ops]) => ({ path, ops, re: new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`) }))
    // Literal segments before templated ones: /api/dumps/jobs/{id} before /api/dumps/{date}/{file}.
    .sort((a, b) => (a.path.match(/\{/g)?.length ?? 0) - (b.path.match(/\{/g)?.length ?? 0));
  shared = { routes, ajv, validators: new Map() };
  return shared;
}

const pointer = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');

/** The violations of one answer ([] when it matches the document). */
export function checkAnswer(method: string, url: string, status: number, contentType: string | undefined, body: string | Buffer | null): string[] {
  const { routes, ajv, validators } = setup();
  // The router ignores a trailing slash (`/latest/chem/`).
  const path = url.split('?')[0].replace(VERSION_PREFIX, '').replace(/(.)\/$/, '$1');
  if (UNCHECKED.some((re) => re.test(path))) return [];
  // A CORS preflight is the browser's question about an operation, not one (api/plugins/security.ts).
  if (method === 'OPTIONS') return [];
  const m = method.toLowerCase() === 'head' ? 'get' : method.toLowerCase();
  const route = routes.find((r) => r.re.test(path) && r.ops[m]);
  const where = `${method} ${url.length > 120 ? `${url.slice(0, 120)}…` : url} → ${status}`;
  if (!route) {
    // An unknown path, or a method its route does not have, answers 404/405 outside any operation;
    // under /api the token is checked before the method (api/catalog/plugin.ts), so also 401; and
    // a body is read before the method is refused, so also its errors (unreadable 400, too large 413, 415).
    if ([400, 404, 405, 413, 415].includes(status) || (status === 401 && path.startsWith('/api/'))) return [];
    return [`${where}: ${routes.some((r) => r.re.test(path)) ? 'method' : 'path'} not documented`];
  }
  const responses = route.ops[m].responses ?? {};
  const key = String(status) in responses ? String(status) : `${String(status)[0]}XX` in responses ? `${String(status)[0]}XX` : 'default' in responses ? 'default' : undefined;
  if (!key) return [`${where}: status not documented for ${m.toUpperCase()} ${route.path}`];
  const content = responses[key].content;
  if (!content || method === 'HEAD' || status === 204) return [];
  const type = (contentType ?? '').split(';')[0].trim();
  if (!type) return body && body.length ? [`${where}: no Content-Type`] : [];
  const media = type in content ? type : Object.keys(content).find((k) => k.endsWith('/*') && type.startsWith(k.slice(0, -1)));
  if (!media) return [`${where}: Content-Type ${type} not documented (${Object.keys(content).join(', ')})`];
  if (body === null || !(type === 'application/json' || type.endsWith('+json'))) return [];
  const schema = (content[media] as { schema?: unknown }).schema;
  if (!schema) return [];
  const ref = `openapi#/paths/${pointer(route.path)}/${m}/responses/${key}/content/${pointer(media)}/schema`;
  let validate = validators.get(ref);
  if (!validate) validators.set(ref, (validate = ajv.compile({ $ref: ref })));
  let value: unknown;
  try {
    value = JSON.parse(body.toString());
  } catch {
    return [`${where}: body is not JSON`];
  }
  if (validate(value)) return [];
  return [`${where}: ${JSON.stringify(validate.errors?.slice(0, 3))} in ${JSON.stringify(value).slice(0, 300)}`];
}

/** Checks every answer of `app` (before `ready`); returns the list its violations are appended to. */
export function checkAnswers(app: FastifyInstance): string[] {
  const violations: string[] = [];
  const report = process.env.OPENAPI_REPORT;
  app.addHook('onSend', async (req, reply, payload) => {
    const body = typeof payload === 'string' || Buffer.isBuffer(payload) ? payload : payload == null ? '' : null;
    const found = checkAnswer(req.method, req.url, reply.statusCode, reply.getHeader('content-type') as string | undefined, body);
    if (found.length) {
      if (report) appendFileSync(report, found.map((v) => `${v}\n`).join(''));
      else violations.push(...found);
    }
    return payload;
  });
  return violations;
}

/**
 * For a test that makes its own app (`Fastify()` with the catalog plugin): the same check, failing
 * the test at teardown. Call it right after making the app, before its other teardowns, so that it
 * runs after them (tap runs teardowns last-registered first, and stops at one that throws).
 */
export function answerCheck(t: { teardown: (fn: () => unknown) => void }, app: FastifyInstance): void {
  const violations = checkAnswers(app);
  t.teardown(() => {
    if (violations.length) throw new Error(`answers the OpenAPI document does not describe (test/helpers/openapi-check.ts):\n${violations.join('\n')}`);
  });
}

/**
 * The load balancer of docker-compose.yml (service lb, deploy/nginx.conf) in front of two apis and
 * one worker as real processes on one Redis, as docs/operations.md ("Several apis") deploys them.
 * There is no Docker here: Debian's nginx (1.22, which lacks `resolve`) runs deploy/nginx.conf
 * turned into the "Without Docker" config exactly as that paragraph tells operators (the upstreams'
 * `server api:8000 resolve;` replaced by the two apis' ports, the `resolver` line removed), plus
 * what nginx needs to run outside /etc (pid, error log and temp paths in a temp dir, its own port).
 * Each replacement must match, so a change of shape of deploy/nginx.conf fails here loudly.
 *
 * Through nginx's port only, it checks that:
 * 1. requests are spread over both apis (each api's own /metrics counts what it served);
 * 2. a client's own X-Forwarded-For is not believed: a client writing a different one on every
 *    request is still refused (429) once its quick budget is spent, by both apis (one budget in
 *    Redis), while another client is still served;
 * 3. MCP's legacy SSE transport is sticky: sessions from several client addresses (GET /sse and
 *    GET /mcp), each answered on its own stream for every message posted through nginx, sessions on
 *    both apis; and Streamable HTTP (POST /mcp), stateless, answers through nginx and one client's
 *    calls are spread over both apis (only the SSE paths are pinned);
 * 4. compressed answers pass through: nginx forwards Accept-Encoding, and the apis' gzip and br
 *    bytes come back as the api sent them (the same encoding, decoding to the api's own answer).
 *
 * Clients are told apart by their source address: every 127.0.0.0/8 address is this machine's, so
 * each check connects from addresses of its own and spends budgets of its own. Nothing here asserts
 * a time: every wait is for a state, bounded only so that a broken build fails instead of hanging.
 */
import { spawn } from 'node:child_process';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import t from 'tap';
import { NO_REDIS, onPath, skipAll } from '../helpers/skip.ts';
import { testRedis } from '../helpers/redis.ts';
import { MOLECULES, ROOT, freePort, serviceEnv, sleep, tempDir, twoApisAndWorker, uniquePrefix } from '../faults/procs.ts';

const NO_NGINX = 'no nginx binary (/usr/sbin/nginx or nginx on PATH; Debian package nginx-light): the load-balancer test needs one';

const nginx = onPath('/usr/sbin/nginx') ?? onPath('nginx');
if (!nginx) {
  skipAll(t, NO_NGINX);
  process.exit(0);
}
const redis = await testRedis();
if (!redis) {
  skipAll(t, NO_REDIS);
  process.exit(0);
}
t.teardown(() => redis.stop());

/** Quick requests each client may make (every check spends the budget of addresses of its own). */
const QUICK = 45;
const SPREAD = 40;

// ---------------------------------------------------------------------------------------------
// HTTP from a chosen source address (fetch cannot choose one): one connection per request.

interface Reply {
  status: number;
  headers: IncomingMessage['headers'];
  body: string;
  /** The body's bytes as they came (an encoded answer is not decoded). */
  bytes?: Buffer;
  error?: string;
}

interface CallOptions {
  method?: string;
  /** The client's source address (any of 127.0.0.0/8). */
  from?: string;
  headers?: Record<string, string>;
  body?: string;
}

function call(url: string, opts: CallOptions = {}): Promise<Reply> {
  return new Promise((resolve) => {
    const req = httpRequest(url, { method: opts.method ?? 'GET', headers: opts.headers, localAddress: opts.from, agent: false, timeout: 60_000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const bytes = Buffer.concat(chunks);
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: bytes.toString('utf8'), bytes });
      });
      res.on('error', (e) => resolve({ status: 0, headers: {}, body: Buffer.concat(chunks).toString('utf8'), error: e.message }));
    });
    req.on('timeout', () => req.destroy(new Error('client timeout')));
    req.on('error', (e) => resolve({ status: 0, headers: {}, body: '', error: e.message }));
    req.end(opts.body);
  });
}

const json = (r: Reply): any => {
  try {
    return JSON.parse(r.body);
  } catch {
    return undefined;
  }
};

interface SseEvent {
  event: string;
  data: string;
}

/** An open event stream: its events as they come. */
class EventStream {
  readonly events: SseEvent[] = [];
  status = 0;
  ended = false;
  private rest = '';
  private waiters: (() => void)[] = [];
  private req?: ReturnType<typeof httpRequest>;

  open(url: string, from: string): Promise<this> {
    return new Promise((resolve) => {
      this.req = httpRequest(url, { headers: { accept: 'text/event-stream' }, localAddress: from, agent: false }, (res) => {
        this.status = res.statusCode ?? 0;
        res.setEncoding('utf8');
        res.on('data', (c: string) => this.feed(c));
        res.on('close', () => this.end());
        resolve(this);
      });
      this.req.on('error', () => {
        this.end();
        resolve(this);
      });
      this.req.end();
    });
  }

  private feed(chunk: string) {
    const blocks = (this.rest + chunk).split('\n\n');
    this.rest = blocks.pop()!;
    for (const block of blocks) {
      const lines = block.split('\n');
      const event = lines.find((l) => l.startsWith('event:'))?.slice(6).trim() ?? 'message';
      const data = lines.filter((l) => l.startsWith('data:')).map((l) => l.slice(5).trim()).join('\n');
      if (lines.every((l) => l.startsWith(':'))) continue; // keep-alive comments
      this.events.push({ event, data });
    }
    this.wake();
  }

  private end() {
    this.ended = true;
    this.wake();
  }

  private wake() {
    for (const w of this.waiters.splice(0)) w();
  }

  /** The first event matching `match` (already received or to come); undefined once the stream ended or after `boundMs`. */
  async next(match: (e: SseEvent) => boolean, boundMs = 30_000): Promise<SseEvent | undefined> {
    const until = Date.now() + boundMs;
    for (;;) {
      const found = this.events.find(match);
      if (found || this.ended || Date.now() > until) return found;
      await new Promise<void>((r) => {
        const timer = setTimeout(r, Math.max(0, until - Date.now()) + 1);
        this.waiters.push(() => {
          clearTimeout(timer);
          r();
        });
      });
    }
  }

  close() {
    this.req?.destroy();
  }
}

/** The JSON-RPC answer with this id on the stream, parsed; undefined if none came. */
async function answerOn(stream: EventStream, id: number): Promise<any> {
  const parse = (data: string): any => {
    try {
      return JSON.parse(data);
    } catch {
      return undefined;
    }
  };
  const e = await stream.next((e) => e.event === 'message' && parse(e.data)?.id === id);
  return e ? parse(e.data) : undefined;
}

// ---------------------------------------------------------------------------------------------
// The nginx config, derived from deploy/nginx.conf as docs/operations.md's "Without Docker" says.

/** What did not match, if anything: each replacement must apply, or the file changed shape. */
function deriveConfig(source: string, ports: { lb: number; apis: number[] }, dir: string): { config: string; problems: string[] } {
  const problems: string[] = [];
  let config = source;
  const replace = (what: string, re: RegExp, by: string, times: number | 'each upstream') => {
    const n = config.match(re)?.length ?? 0;
    const want = times === 'each upstream' ? (config.match(/^\s*upstream\s+\S+\s*\{/gm)?.length ?? 0) : times;
    if (n === 0 || n !== want) problems.push(`${what}: ${re} matched ${n} times, expected ${want}`);
    config = config.replace(re, by);
  };
  replace('the replicas found through DNS', /server\s+api:8000\s+resolve\s*;/g, ports.apis.map((p) => `server 127.0.0.1:${p};`).join(' '), 'each upstream');
  replace("Docker's resolver", /^[ \t]*resolver\s[^;]*;[ \t]*\n/gm, '', 1);
  replace('the published port', /^([ \t]*)listen\s+8000\s*;/gm, `$1listen 127.0.0.1:${ports.lb};`, 1);
  // Outside a container: the pid file, the error log and the temp paths in this test's folder.
  replace('the main context', /^worker_processes\b/gm, `pid ${dir}/nginx.pid;\nerror_log ${dir}/error.log warn;\nworker_processes`, 1);
  const temps = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((m) => `  ${m}_temp_path ${dir}/${m};`).join('\n');
  replace('the http context', /^http\s*\{[ \t]*\n/gm, `http {\n${temps}\n`, 1);
  return { config, problems };
}

// ---------------------------------------------------------------------------------------------
// The service: two apis and a worker on one Redis, nginx in front.

const prefix = uniquePrefix('lb-nginx');
const dir = tempDir(t, 'nginx');
chmodSync(dir, 0o755); // nginx's workers run as nobody when the test runs as root
const env = serviceEnv({
  REDIS_URL: redis.url,
  QUEUE_PREFIX: prefix,
  DATA_DIR: tempDir(t, 'data'),
  // The apis believe nginx (a loopback peer) and limit everyone, loopback included.
  TRUST_PROXY: 'loopback',
  RATE_LIMIT_QUICK: String(QUICK),
  RATE_LIMIT_WINDOW_MS: '3600000',
  RATE_LIMIT_EXEMPT: '',
});
const { apiA, apiB } = await twoApisAndWorker(t, redis.url, prefix, env);
const lbPort = await freePort();
const nginxLines: string[] = [];
const A = `http://127.0.0.1:${apiA.port}`;
const B = `http://127.0.0.1:${apiB.port}`;
const LB = `http://127.0.0.1:${lbPort}`;


const { config, problems } = deriveConfig(readFileSync(join(ROOT, 'deploy/nginx.conf'), 'utf8'), { lb: lbPort, apis: [apiA.port!, apiB.port!] }, dir);
const confFile = join(dir, 'nginx.conf');
writeFileSync(confFile, config);
const nginxChild = spawn(nginx, ['-c', confFile, '-p', dir, '-g', 'daemon off;'], { stdio: ['ignore', 'pipe', 'pipe'] });
// A fast shutdown (TERM), so that its master takes its workers along (a KILL would leave them).
t.teardown(async () => {
  if (nginxChild.exitCode !== null || nginxChild.signalCode !== null) return;
  const exited = new Promise((r) => nginxChild.once('exit', r));
  nginxChild.kill('SIGTERM');
  await Promise.race([exited, sleep(10_000)]);
  if (nginxChild.exitCode === null && nginxChild.signalCode === null) nginxChild.kill('SIGKILL');
});
nginxChild.on('error', (e) => nginxLines.push(`spawn ${nginx}: ${e.message}`));
for (const s of [nginxChild.stdout!, nginxChild.stderr!]) s.on('data', (d: Buffer) => nginxLines.push(...d.toString().split('\n').filter(Boolean)));

/** What went wrong with nginx, for a failure's message. */
const nginxLog = () => {
  let log = '';
  try {
    log = readFileSync(join(dir, 'error.log'), 'utf8');
  } catch {}
  return [...nginxLines, ...log.split('\n')].filter(Boolean).slice(-15).join('\n');
};

// nginx answers once its port does: /health is any api's, counted by no budget.
let up: Reply = { status: 0, headers: {}, body: '' };
for (let i = 0; i < 200 && nginxChild.exitCode === null && up.status !== 200; i++) {
  up = await call(`${LB}/health`);
  if (up.status !== 200) await sleep(100);
}
const skip = up.status === 200 ? false : 'nginx did not start';

// (Assertions only in subtests: the root test would end itself after one while setup awaits.)
t.test('deploy/nginx.conf derived as "Without Docker" says, run by nginx', async (t) => {
  for (const p of problems) t.fail(`deploy/nginx.conf changed shape, the derivation of docs/operations.md ("Without Docker") does not apply: ${p}`);
  t.equal(up.status, 200, `nginx answers on port ${lbPort}`, up.status === 200 ? {} : { exit: nginxChild.exitCode ?? nginxChild.signalCode, config, log: nginxLog() });
});

/** Requests each api answered so far (its own /metrics, scraped directly), by status class, /metrics itself left out. */
async function served(base: string): Promise<Record<string, number>> {
  const text = (await call(`${base}/metrics`)).body;
  const out: Record<string, number> = {};
  for (const line of text.split('\n')) {
    const m = /^http_requests_total\{([^}]*)\} (\S+)$/.exec(line);
    if (!m || /route="\/metrics"/.test(m[1]!)) continue;
    const status = /status="(\w+)"/.exec(m[1]!)?.[1] ?? '?';
    out[status] = (out[status] ?? 0) + Number(m[2]);
  }
  return out;
}

/** What each api answered while `fn` ran, by status class. */
async function perApi<T>(fn: () => Promise<T>): Promise<{ result: T; a: Record<string, number>; b: Record<string, number> }> {
  const [a0, b0] = await Promise.all([served(A), served(B)]);
  const result = await fn();
  const [a1, b1] = await Promise.all([served(A), served(B)]);
  const diff = (x: Record<string, number>, y: Record<string, number>) => Object.fromEntries(Object.entries(y).map(([k, v]) => [k, v - (x[k] ?? 0)]).filter(([, v]) => v));
  return { result, a: diff(a0, a1), b: diff(b0, b1) };
}

const canonical = (base: string, smiles: string) => `${base}/latest/convert/canonicalsmiles?smiles=${encodeURIComponent(smiles)}`;

t.test('requests through nginx are spread over both apis', { skip }, async (t) => {
  // The expected answers, from api A directly.
  const expected = new Map<string, string>();
  for (const smi of MOLECULES) expected.set(smi, (await call(canonical(A, smi))).body);
  const { result, a, b } = await perApi(async () => {
    const answers: Reply[] = [];
    for (let i = 0; i < SPREAD; i++) answers.push(await call(canonical(LB, MOLECULES[i % MOLECULES.length]!), { from: '127.0.0.5' }));
    return answers;
  });
  const wrong = result.map((r, i) => ({ r, smi: MOLECULES[i % MOLECULES.length]! })).filter(({ r, smi }) => r.status !== 200 || r.body !== expected.get(smi));
  t.same(wrong.map(({ r, smi }) => `${smi}: ${r.status} ${r.body.slice(0, 200)} ${r.error ?? ''}`), [], `${SPREAD} canonical SMILES through nginx, all 200 with the answer of the api itself`);
  t.comment(`api A served ${JSON.stringify(a)}, api B ${JSON.stringify(b)}`);
  t.equal((a['2xx'] ?? 0) + (b['2xx'] ?? 0), SPREAD, 'the apis served them all, nothing else');
  t.ok((a['2xx'] ?? 0) > 0 && (b['2xx'] ?? 0) > 0, 'both apis served some');
});

t.test("a client's own X-Forwarded-For is not believed: its budget is spent across both apis", { skip }, async (t) => {
  const { result, a, b } = await perApi(async () => {
    const statuses: number[] = [];
    // A different address in X-Forwarded-For (and Forwarded, X-Real-IP) on every request.
    for (let i = 0; i < QUICK + 4; i++) {
      const fake = `203.0.113.${i + 1}`;
      const r = await call(canonical(LB, 'CCO'), { from: '127.0.0.2', headers: { 'x-forwarded-for': fake, forwarded: `for=${fake}`, 'x-real-ip': fake } });
      statuses.push(r.status);
    }
    return statuses;
  });
  t.same(result.slice(0, QUICK), Array(QUICK).fill(200), `the first ${QUICK} (the quick budget) served`);
  t.same(result.slice(QUICK), Array(4).fill(429), 'the next ones refused: one client, whatever it writes');
  t.comment(`api A answered ${JSON.stringify(a)}, api B ${JSON.stringify(b)}`);
  t.ok((a['2xx'] ?? 0) > 0 && (b['2xx'] ?? 0) > 0, 'both apis served it');
  t.ok((a['4xx'] ?? 0) > 0 && (b['4xx'] ?? 0) > 0, 'both apis refused it: one budget in Redis');
  const other = await call(canonical(LB, 'CCO'), { from: '127.0.0.3' });
  t.equal(other.status, 200, 'another client address is still served');
});

t.test('MCP through nginx: legacy SSE sessions are sticky, Streamable HTTP is spread', { skip }, async (t) => {
  const INIT = { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: 'lb-nginx-test', version: '0' } };
  const streams: EventStream[] = [];
  t.teardown(() => streams.forEach((s) => s.close()));
  const holders = { A: 0, B: 0 };
  const failures: string[] = [];
  // Sessions from new client addresses until there are at least 4 and both apis hold some (the
  // consistent hash may put a run of addresses on one api: up to 48 tries), or one failed.
  for (let i = 0; i < 48 && (i < 4 || (!failures.length && (!holders.A || !holders.B))); i++) {
    const from = `127.0.1.${i + 1}`;
    const path = i % 2 ? '/mcp' : '/sse';
    const stream = await new EventStream().open(LB + path, from);
    streams.push(stream);
    const endpoint = await stream.next((e) => e.event === 'endpoint');
    if (stream.status !== 200 || !endpoint) {
      failures.push(`${from} GET ${path}: ${stream.status}, ${endpoint ? 'endpoint event' : 'no endpoint event'}`);
      continue;
    }
    const post = (message: object) =>
      call(LB + endpoint.data, { method: 'POST', from, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', ...message }) });
    const { result: posts, a, b } = await perApi(async () => [
      await post({ id: 1, method: 'initialize', params: INIT }),
      await post({ method: 'notifications/initialized' }),
      await post({ id: 2, method: 'tools/list' }),
    ]);
    const bad = posts.filter((p) => p.status !== 202);
    if (bad.length) failures.push(`${from} POST ${endpoint.data}: ${posts.map((p) => `${p.status} ${p.body.slice(0, 80)}`).join('; ')}`);
    // An answer comes only to a post its session's api accepted.
    const init = posts[0]!.status === 202 ? await answerOn(stream, 1) : undefined;
    const tools = posts[2]!.status === 202 ? await answerOn(stream, 2) : undefined;
    if (!init?.result?.serverInfo) failures.push(`${from}: no initialize answer on its stream (${JSON.stringify(init)?.slice(0, 200)})`);
    if (!(tools?.result?.tools?.length > 0)) failures.push(`${from}: no tools/list answer on its stream (${JSON.stringify(tools)?.slice(0, 200)})`);
    if ((a['2xx'] ?? 0) === 3 && !b['2xx']) holders.A++;
    else if ((b['2xx'] ?? 0) === 3 && !a['2xx']) holders.B++;
    else failures.push(`${from}: its posts were answered by api A ${JSON.stringify(a)} and api B ${JSON.stringify(b)}`);
  }
  t.same(failures, [], `${streams.length} SSE sessions (GET /sse and GET /mcp): every message post accepted (202) and answered on its own stream`);
  t.comment(`sessions held by api A: ${holders.A}, by api B: ${holders.B}`);
  t.ok(streams.length >= 4, 'at least 4 sessions');
  t.ok(holders.A > 0 && holders.B > 0, 'sessions of different clients on both apis');

  // Streamable HTTP is stateless: one client's calls are spread over the apis like any request.
  const streamable = (id: number) =>
    call(`${LB}/mcp`, {
      method: 'POST',
      from: '127.0.0.6',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id, method: 'initialize', params: { ...INIT, protocolVersion: '2025-03-26' } }),
    });
  const { result: inits, a, b } = await perApi(async () => {
    const out: Reply[] = [];
    for (let id = 1; id <= 10; id++) out.push(await streamable(id));
    return out;
  });
  const badInit = inits.filter((r) => r.status !== 200 || !json(r)?.result?.serverInfo);
  t.same(badInit.map((r) => `${r.status} ${r.body.slice(0, 200)}`), [], '10 Streamable HTTP initialize calls of one client through nginx: 200 with serverInfo');
  t.comment(`Streamable HTTP calls served by api A ${JSON.stringify(a)}, api B ${JSON.stringify(b)}`);
  t.ok((a['2xx'] ?? 0) > 0 && (b['2xx'] ?? 0) > 0, "one client's Streamable HTTP calls reach both apis (not pinned like SSE)");
});

t.test('compressed answers pass through nginx as the api encoded them', { skip }, async (t) => {
  const url = '/openapi.json';
  const direct = await call(A + url, { from: '127.0.0.7' });
  t.equal(direct.status, 200);
  t.ok(direct.bytes!.length > 10_000, `a large JSON answer (${direct.bytes!.length} bytes)`);
  for (const [enc, decode] of [['gzip', gunzipSync], ['br', brotliDecompressSync]] as const) {
    const r = await call(LB + url, { from: '127.0.0.7', headers: { 'accept-encoding': enc } });
    t.equal(r.status, 200);
    t.equal(r.headers['content-encoding'], enc, `${enc}: Accept-Encoding reached the api, its encoding came back`);
    t.ok(r.bytes!.length < direct.bytes!.length / 3, `${enc}: ${r.bytes!.length} bytes through nginx`);
    t.same(JSON.parse(decode(r.bytes!).toString()), JSON.parse(direct.body), `${enc}: decodes to the api's own answer`);
  }
  const plain = await call(LB + url, { from: '127.0.0.7' });
  t.equal(plain.headers['content-encoding'], undefined, 'without Accept-Encoding: plain, nginx adds no encoding');
  t.same(plain.bytes, direct.bytes);
});

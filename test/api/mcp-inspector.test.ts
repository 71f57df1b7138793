/**
 * The MCP Inspector's own CLI (`mcp-inspector --cli`, dev dependency @modelcontextprotocol/inspector)
 * as a child process against each transport: legacy SSE at the paths it assumes (`GET /sse`,
 * messages at `/messages`), Streamable HTTP at `POST /mcp`, and stdio (`api/mcp/stdio.ts`, started
 * by the Inspector). Each lists the tools (every registry operation is one) and calls
 * generate_canonical_smiles, whose answer must be the REST one. The CLI needs no network beyond
 * the server it is pointed at. Skipped loudly when the Inspector is not installed.
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { OPERATIONS } from '../../shared/ops/index.ts';
import { build } from '../helpers/app.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
// One CLI call takes about 1 s over HTTP and 3 s over stdio (the server starts RDKit first).
const CALL_TIMEOUT_MS = 60_000;
const SMILES = 'CN1C=NC2=C1C(=O)N(C(=O)N2C)C'; // `=` inside a --tool-arg value: the Inspector splits on the first only
const CANONICAL = 'CN1C(=O)C2=C(N=CN2C)N(C)C1=O';

/** The Inspector's bin (`mcp-inspector`, what `npx @modelcontextprotocol/inspector` runs), if installed. */
function inspectorBin(): { bin: string; version: string } | undefined {
  try {
    const pkgPath = createRequire(import.meta.url).resolve('@modelcontextprotocol/inspector/package.json');
    const pkg = JSON.parse(readFileSync(pkgPath, 'utf8')) as { version: string; bin: string | Record<string, string> };
    const rel = typeof pkg.bin === 'string' ? pkg.bin : pkg.bin['mcp-inspector'];
    const bin = rel && join(dirname(pkgPath), rel);
    return bin && existsSync(bin) ? { bin, version: pkg.version } : undefined;
  } catch {
    return undefined;
  }
}

const inspector = inspectorBin();
if (!inspector) {
  const reason = '@modelcontextprotocol/inspector is not installed (npm ci installs it), so the Inspector CLI is not run';
  console.warn(`#### ${reason} ####`);
  t.skip(reason, () => {});
} else {
  t.comment(`MCP Inspector ${inspector.version}`);
  // Without REDIS_URL the stdio server runs the inline runner, as the api under test does.
  const env: Record<string, string> = Object.fromEntries(Object.entries(process.env).filter(([k, v]) => v !== undefined && k !== 'REDIS_URL')) as Record<string, string>;
  // The launcher starts its CLI with `node` from PATH: the node running this test.
  env.PATH = `${dirname(process.execPath)}${delimiter}${env.PATH ?? ''}`;

  /** `mcp-inspector --cli <args>`: its stdout as JSON; a failure carries its exit code and stderr. */
  const inspect = (args: string[]) =>
    new Promise<unknown>((resolve, reject) => {
      execFile(process.execPath, [inspector.bin, '--cli', ...args], { cwd: ROOT, env, timeout: CALL_TIMEOUT_MS, killSignal: 'SIGKILL', maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
        if (err) return reject(new Error(`mcp-inspector --cli ${args.join(' ')}: ${err.message}\n${stderr}`));
        try {
          resolve(JSON.parse(stdout));
        } catch {
          reject(new Error(`mcp-inspector printed no JSON: ${stdout.slice(0, 500)}\n${stderr}`));
        }
      });
    });

  const { app } = (await build(t, 'inline'))!;
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  const rest = (await app.inject({ url: '/convert/canonicalsmiles', query: { smiles: SMILES } })).json() as string;

  const dataDir = await mkdtemp(join(tmpdir(), 'natprod-inspector-'));
  t.teardown(() => rm(dataDir, { recursive: true, force: true }));
  const stdioServer = [
    ...['DATA_DIR=' + dataDir, 'SEED_DEMO=false', 'WORKERS=1', 'LOG_LEVEL=silent'].flatMap((kv) => ['-e', kv]),
    process.execPath, '--import', 'tsx', 'api/mcp/stdio.ts',
  ];

  const targets: Record<string, { target: string[]; transport: string[] }> = {
    'SSE at /sse (messages at /messages)': { target: [`${base}/sse`], transport: ['--transport', 'sse'] },
    'Streamable HTTP at /mcp': { target: [`${base}/mcp`], transport: ['--transport', 'http'] },
    'stdio (api/mcp/stdio.ts)': { target: stdioServer, transport: [] },
  };

  for (const [name, { target, transport }] of Object.entries(targets)) {
    t.test(name, async (t) => {
      const list = (await inspect([...target, ...transport, '--method', 'tools/list'])) as { tools: { name: string }[] };
      const names = new Set(list.tools.map((x) => x.name));
      const missing = OPERATIONS.map((o) => o.name).filter((n) => !names.has(n));
      t.same(missing, [], `tools/list names every one of the ${OPERATIONS.length} operations (${names.size} tools)`);

      const call = (await inspect([...target, ...transport, '--method', 'tools/call', '--tool-name', 'generate_canonical_smiles', '--tool-arg', `smiles=${SMILES}`])) as {
        content: { type: string; text: string }[];
        isError?: boolean;
      };
      t.notOk(call.isError, 'tools/call succeeded');
      t.equal(call.content[0]?.type, 'text');
      t.equal(JSON.parse(call.content[0]?.text ?? 'null'), CANONICAL, 'the canonical SMILES');
      t.equal(CANONICAL, rest, 'the REST answer');
    });
  }
}

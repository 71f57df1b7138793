/**
 * (Over 300 lines on purpose: the one schema of every variable, each with the comment that documents it; splitting it would scatter the settings an operator looks up.)
 * Every environment variable the service reads, parsed and validated once at start-up.
 * A bad value stops the process with a message naming the variable.
 */
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { z } from 'zod';
import proxyAddr from '@fastify/proxy-addr';

const intVar = (dflt: number, min = 0) =>
  z
    .string()
    .trim()
    .regex(/^\d+$/, 'must be a whole number')
    .transform(Number)
    .pipe(z.number().int().min(min))
    .optional()
    .transform((v) => v ?? dflt);

const boolVar = (dflt: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no'])
    .optional()
    .transform((v) => (v === undefined ? dflt : ['true', '1', 'yes'].includes(v)));

const urlVar = z.string().trim().url('must be a URL').optional();

const originOf = (s: string) => {
  try {
    return new URL(s).origin;
  } catch {
    return undefined;
  }
};

const schema = z.object({
  PORT: intVar(8000, 0),
  HOST: z.string().default('0.0.0.0'),
  /** Selects the bullmq job runner when set; otherwise jobs run inline in the api process. */
  REDIS_URL: urlVar,
  /** Selects the MongoDB store when set; otherwise the embedded store under DATA_DIR. */
  MONGO_URL: urlVar,
  DATA_DIR: z.string().default('./data').transform((p) => resolve(p)),
  /**
   * Chemistry worker threads per process (the Piscina pool size): one per core, in both modes.
   * The api's own event loop needs little CPU next to the chemistry (measured in bench/http.ts).
   */
  WORKERS: intVar(Math.max(1, availableParallelism()), 1),
  /**
   * Niceness of the chemistry threads (Linux; 0 leaves them as the process): the api's and the
   * worker's main threads and Redis, which hand the work around, then run as soon as they have
   * something to do instead of waiting for a chemistry thread's time slice. Measured on 2 cores
   * (docs/performance.md): distributed canonical SMILES +8 % at 5, +2 % at 10; inline unchanged.
   */
  THREAD_NICE: intVar(5, 0).pipe(z.number().max(19, 'must be at most 19')),
  HOMEPAGE_URL: z.string().default('/latest/docs'),
  RELEASE_VERSION: z.string().default('0.1.0'),
  /** How long a quick operation's HTTP call waits for its job before answering 504. */
  JOB_TIMEOUT_MS: intVar(30_000, 100),
  /** Hard limit for one task on a worker thread (quick operations). */
  TASK_TIMEOUT_MS: intVar(60_000, 100),
  /** Hard limit for long operations (structure generation, PDFs, classification). */
  LONG_TASK_TIMEOUT_MS: intVar(600_000, 1000),
  /** Prefix of every BullMQ key in Redis (several deployments can share one Redis). */
  QUEUE_PREFIX: z.string().regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, _ and - only').default('natprod'),
  /** Attempts per job when a worker fails for an infrastructure reason (bad input is never retried). */
  JOB_ATTEMPTS: intVar(3, 1),
  /**
   * BullMQ lock duration in ms: a job whose worker process died is handed to another worker after
   * at most about this long (stalled-job recovery).
   */
  JOB_LOCK_MS: intVar(30_000, 1000),
  /** Seconds a finished job and its result stay available to GET /jobs/{id}. */
  JOB_RESULT_TTL: intVar(3600, 1),
  /**
   * Catalog exports (`POST /api/molecules/export`) of more molecules than this run as a job that
   * writes a file under DATA_DIR/exports (202 + status URL); smaller ones stream at once.
   */
  EXPORT_SYNC_MAX: intVar(10_000, 0),
  /** Where full dumps (`npm run dump`, `POST /api/dumps`) are written: `<dir>/<date>/`; unset: DATA_DIR/dumps. */
  DUMP_DIR: z.string().trim().min(1).optional().transform((p) => (p ? resolve(p) : undefined)),
  /** Whether a dump writes the 3D SDF unless told otherwise (slow: see docs/catalog.md, Dumps). */
  DUMP_3D: boolVar(false),
  /** Most rows (identifiers, InChIKeys, SMILES or names) in one bulk look-up (`POST /api/molecules/lookup`). */
  LOOKUP_MAX_ROWS: intVar(200_000, 1),
  /** Bytes of one bulk look-up list: an uploaded file, or a text/plain, text/csv or JSON body. */
  LOOKUP_UPLOAD_LIMIT: intVar(20 * 1_048_576, 1024),
  /**
   * Bulk look-ups of more rows than this run as a job writing a CSV file under DATA_DIR/lookups
   * (202 + status URL); smaller ones answer at once.
   */
  LOOKUP_SYNC_MAX: intVar(10_000, 0),
  /**
   * The folder on the server whose files `POST /api/imports` may import by path (`{"path": ...}`,
   * relative to it or absolute under it); unset: imports by path are refused, uploads only.
   */
  IMPORT_DIR: z.string().trim().min(1).optional().transform((p) => (p ? resolve(p) : undefined)),
  /** Bytes of one uploaded import file (`POST /api/imports`); a larger file goes under IMPORT_DIR. */
  IMPORT_UPLOAD_LIMIT: intVar(2 * 1024 * 1_048_576, 1024),
  /** Structures derived per task by a catalog import (the task `derive_molecules`). */
  IMPORT_CHUNK: intVar(32, 1),
  /**
   * Rows of a file that carries its derivation (natprod's full dump) loaded as the file gives them,
   * per row derived again to check it (api/catalog/import/carried.ts); 1 derives every row.
   */
  IMPORT_SAMPLE_EVERY: intVar(100, 1),
  /** Bytes accepted in a JSON or text request body. */
  BODY_LIMIT: intVar(1_048_576, 1024),
  /** Bytes accepted in one uploaded file. */
  UPLOAD_LIMIT: intVar(20 * 1_048_576, 1024),
  /**
   * HTTP compression (api/plugins/compress.ts): JSON, text, CSV, SDF, MOL and SVG answers of at
   * least this many bytes go out gzip- or br-encoded when the client accepts it; 0 = never.
   */
  COMPRESS_MIN_BYTES: intVar(1024, 0),
  /**
   * Structure-search shards (distributed mode; docs/search.md, "Sizing and sharding"): each worker
   * process holds the index rows of one shard (`id % SEARCH_SHARDS == SEARCH_SHARD`) and the api
   * sends each search to one worker of every shard. Api and workers must agree; 1 = every worker
   * holds the whole index. The inline mode (no REDIS_URL) holds one index and ignores it.
   */
  SEARCH_SHARDS: intVar(1, 1).pipe(z.number().max(64, 'must be at most 64')),
  /** The shard a worker process holds, 0 to SEARCH_SHARDS - 1 (worker processes only). */
  SEARCH_SHARD: intVar(0, 0),
  /** Port of the worker process's own /health and /metrics server (0 = any free port). */
  WORKER_METRICS_PORT: intVar(9100, 0),
  /** Shutdown grace period in ms: in-flight work gets this long before it is handed back. */
  SHUTDOWN_GRACE_MS: intVar(10_000, 0),
  /**
   * Requests per client and RATE_LIMIT_WINDOW_MS (0 = no limit). A client is a valid bearer token
   * (hashed), else an IP address. Budgets: quick operations (chemistry, job polls, catalog reads,
   * MCP), long jobs (long operations and any `?async=true` call), catalog writes (mutate,
   * actions, delete, login, register). See docs/operations.md.
   */
  RATE_LIMIT_QUICK: intVar(600, 0),
  RATE_LIMIT_LONG: intVar(20, 0),
  RATE_LIMIT_WRITES: intVar(120, 0),
  RATE_LIMIT_WINDOW_MS: intVar(60_000, 1000),
  /**
   * Clients the request budgets and the long-job cap do not apply to, by address (the one
   * TRUST_PROXY believes): proxy-addr names (`loopback`, `linklocal`, `uniquelocal`), addresses
   * and CIDRs, comma-separated. The default exempts the machine's own clients, so a researcher's
   * batch against a local `npm start` is never throttled; empty (or `none`) limits everyone.
   */
  RATE_LIMIT_EXEMPT: z
    .string()
    .trim()
    .default('loopback')
    .transform((v) => (v === 'none' ? [] : v.split(',').map((a) => a.trim()).filter(Boolean)))
    .superRefine((list, ctx) => {
      try {
        proxyAddr.compile(list);
      } catch (e) {
        ctx.addIssue({ code: 'custom', message: `must be loopback, linklocal, uniquelocal, addresses or CIDRs, comma-separated (${(e as Error).message})` });
      }
    }),
  /** Long jobs (structure generation, PDFs, classification) one client may have queued or running (0 = no cap). */
  LONG_JOBS_PER_CLIENT: intVar(2, 0),
  /**
   * Which peers may set X-Forwarded-For/-Proto/-Host (the client IP of rate limits, the scheme and
   * host of status URLs): `true`, `false`, a number of hops, or addresses/CIDRs/proxy-addr names.
   * The default trusts loopback and private networks (a proxy beside the api), never the internet.
   */
  TRUST_PROXY: z
    .string()
    .trim()
    .default('loopback,linklocal,uniquelocal')
    .transform((v): boolean | string | ((address: string, hop: number) => boolean) =>
      v === 'true' ? true : v === 'false' ? false : /^\d+$/.test(v) ? (_address: string, hop: number) => hop < Number(v) : v,
    ),
  /**
   * Browser origins allowed by CORS, comma-separated: `*` opens the public surface (chemistry,
   * jobs, MCP, catalog reads and searches) to any origin; catalog writes (mutate, actions, delete,
   * login, register) are allowed only to origins listed by name.
   */
  CORS_ORIGINS: z
    .string()
    .default('*')
    .transform((v) => v.split(',').map((o) => o.trim()).filter(Boolean))
    .refine((list) => list.every((o) => o === '*' || originOf(o) === o), 'each entry must be * or an origin such as https://app.example.org (scheme, host, optional port; no path)'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /**
   * Log every request and response (Fastify's request logging). Off by default: two log lines
   * per request cost about 14 % of the api's CPU at saturation; errors are logged either way.
   */
  LOG_REQUESTS: boolVar(false),
  /** Import the LOTUS demo set into an empty embedded store at first start. */
  SEED_DEMO: boolVar(true),
  /** Open `POST /api/auth/register` (COCONUT's self-registration: a reader account and token). */
  CATALOG_REGISTRATION: boolVar(false),
  /**
   * Most heavy atoms in one input structure (refused with 422 before parsing). RDKit's WASM stack
   * gives out on chains of about 470-590 atoms; see shared/chem/core/rdkit.ts.
   */
  MAX_HEAVY_ATOMS: intVar(400, 1),
  /** Most pages one PDF extraction reads. */
  PDF_MAX_PAGES: intVar(200, 1),
  /** External compound database (PubChem PUG-REST compatible) for retrieve_extdb_smiles. */
  EXTDB_URL: z.string().trim().url('must be a URL').default('https://pubchem.ncbi.nlm.nih.gov/rest/pug'),
  /** Timeout of one request to the external compound database, in ms. */
  EXTDB_TIMEOUT_MS: intVar(10_000, 100),
  /** Optional external classification service with the upstream (ClassyFire-style) API. */
  CHEMCLASS_URL: urlVar,
  /**
   * OPSIN jar for reading chemical names (generate_smiles); unset: Debian's libopsin-java in
   * /usr/share/java; `off` disables OPSIN. See docs/names.md.
   */
  OPSIN_JAR: z.string().trim().optional(),
  /** Java runtime that runs OPSIN; unset: $JAVA_HOME/bin/java, else java on PATH. */
  OPSIN_JAVA: z.string().trim().optional(),
  /** Longest OPSIN may take over one name, in ms; then its JVM is killed and restarted. */
  OPSIN_TIMEOUT_MS: intVar(5_000, 50),
  /** The OPSIN JVM stops after this many ms without a name (0 = never); the next name restarts it. */
  OPSIN_IDLE_MS: intVar(600_000, 0),
  /**
   * CDK for `toolkit=cdk` (docs/toolkits.md): a directory of CDK 2.8 jars and their dependencies;
   * unset: Debian's libcdk-java in /usr/share/java; `off` disables CDK.
   */
  CDK_JARS: z.string().trim().optional(),
  /** Java runtime that runs the CDK sidecar; unset: $JAVA_HOME/bin/java, else java on PATH. */
  CDK_JAVA: z.string().trim().optional(),
  /** Python with the openbabel module for `toolkit=openbabel`; unset: /usr/bin/python3 (Debian's python3-openbabel); `off` disables it. */
  OPENBABEL_PYTHON: z.string().trim().optional(),
  /** Python with the rdkit module for `toolkit=rdkit` on the 3D operations (native RDKit); unset: /usr/bin/python3 (Debian's python3-rdkit); `off` disables it. */
  RDKIT_PYTHON: z.string().trim().optional(),
  /** Longest one toolkit call may take in its sidecar, in ms; then the sidecar is killed and restarted (504). */
  TOOLKIT_TIMEOUT_MS: intVar(10_000, 50),
  /** A toolkit sidecar stops after this many ms without a call (0 = never); the next call restarts it. */
  TOOLKIT_IDLE_MS: intVar(600_000, 0),
  /** Calls that may wait for one toolkit sidecar; more are refused (503). */
  TOOLKIT_QUEUE: intVar(256, 1),
  /**
   * osra for structure recognition in pictures (the OCSR operations, docs/ocsr.md): unset = `osra`
   * on PATH (Debian's osra package), `off` disables them, else the binary's path.
   */
  OCSR_OSRA: z.string().trim().optional(),
  /** Longest osra may take over one picture, in ms; then it is killed (504, or that figure's error in a PDF). */
  OCSR_TIMEOUT_MS: intVar(20_000, 100),
  /** Address space of one osra run, in MB (`ulimit -v`); a picture that needs more fails with 422. */
  OCSR_MEMORY_MB: intVar(1024, 256),
  /** Bytes of one picture sent to the OCSR operations; more: 413. */
  OCSR_MAX_BYTES: intVar(10 * 1_048_576, 1024),
  /** Pixels (width × height) of one picture; more: 413 (osra's time and memory grow with them). */
  OCSR_MAX_PIXELS: intVar(16_000_000, 10_000),
  /** Most embedded images read by osra from one PDF (`/ocsr/process-pdf`); the rest are counted and left. */
  OCSR_PDF_MAX_IMAGES: intVar(50, 1),
});

export type Config = z.infer<typeof schema>;

export class ConfigError extends Error {}

/** Variables for which an empty value means "none" rather than "unset, take the default". */
const EMPTY_IS_A_VALUE = new Set(['RATE_LIMIT_EXEMPT']);

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const clean = Object.fromEntries(Object.entries(env).filter(([k, v]) => v !== undefined && (v !== '' || EMPTY_IS_A_VALUE.has(k))));
  const parsed = schema.safeParse(clean);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message} (got ${JSON.stringify(clean[String(i.path[0])])})`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  // The one rule between two variables: a worker's shard is one of the shards.
  if (parsed.data.SEARCH_SHARD >= parsed.data.SEARCH_SHARDS) {
    throw new ConfigError(`Invalid configuration:\n  SEARCH_SHARD: must be below SEARCH_SHARDS (${parsed.data.SEARCH_SHARDS}) (got ${JSON.stringify(clean.SEARCH_SHARD)})`);
  }
  return parsed.data;
}

/**
 * The part of the configuration that chemistry threads read (the task handlers and RDKit's input
 * limit): plain values only, so it can be structured-cloned into each thread at start. The api
 * and worker processes read the whole `Config` once and give each thread `threadConfig(config)`;
 * a task reads it as `ctx.config` (shared/ops/types.ts, `TaskContext`).
 */
export type ThreadConfig = Pick<
  Config,
  'MAX_HEAVY_ATOMS' | 'THREAD_NICE' | 'PDF_MAX_PAGES' | 'UPLOAD_LIMIT' | 'EXTDB_URL' | 'EXTDB_TIMEOUT_MS' | 'CHEMCLASS_URL' | OcsrVariable
>;

/** The OCSR operations' settings, which their tasks read on the threads (shared/ocsr/). */
export const OCSR_VARIABLES = ['OCSR_OSRA', 'OCSR_TIMEOUT_MS', 'OCSR_MEMORY_MB', 'OCSR_MAX_BYTES', 'OCSR_MAX_PIXELS', 'OCSR_PDF_MAX_IMAGES'] as const;
type OcsrVariable = (typeof OCSR_VARIABLES)[number];

export function threadConfig(config: Config): ThreadConfig {
  return {
    MAX_HEAVY_ATOMS: config.MAX_HEAVY_ATOMS,
    THREAD_NICE: config.THREAD_NICE,
    PDF_MAX_PAGES: config.PDF_MAX_PAGES,
    UPLOAD_LIMIT: config.UPLOAD_LIMIT,
    EXTDB_URL: config.EXTDB_URL,
    EXTDB_TIMEOUT_MS: config.EXTDB_TIMEOUT_MS,
    CHEMCLASS_URL: config.CHEMCLASS_URL,
    OCSR_OSRA: config.OCSR_OSRA,
    OCSR_TIMEOUT_MS: config.OCSR_TIMEOUT_MS,
    OCSR_MEMORY_MB: config.OCSR_MEMORY_MB,
    OCSR_MAX_BYTES: config.OCSR_MAX_BYTES,
    OCSR_MAX_PIXELS: config.OCSR_MAX_PIXELS,
    OCSR_PDF_MAX_IMAGES: config.OCSR_PDF_MAX_IMAGES,
  };
}

/** For process entries: the configuration, or exit 2 with the message naming what is wrong. */
export function loadConfigOrExit(env: NodeJS.ProcessEnv = process.env): Config {
  try {
    return loadConfig(env);
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    console.error(e.message);
    process.exit(2);
  }
}

/**
 * The shape of an operation-registry entry. One entry drives the REST route, the MCP tool,
 * the OpenAPI document and worker dispatch; see docs/architecture.md.
 */
import type { z } from 'zod';
import type { RDKit } from '../chem/core/rdkit.ts';
import type { Config, ThreadConfig } from '../config.ts';

export type MediaType = 'application/json' | 'text/plain' | 'image/svg+xml' | 'text/html' | 'image/png';

/**
 * Binary media types: their results travel as base64 text (from a thread, through BullMQ's JSON
 * job records, in a polled job's `result`) and the HTTP layer sends the decoded bytes.
 */
export const BINARY_MEDIA: ReadonlySet<MediaType> = new Set<MediaType>(['image/png']);

/**
 * An operation whose media type depends on one argument: `{arg: 'format', media: {png: 'image/png'}}`
 * answers `image/png` when `format=png` and the operation's `output` otherwise.
 */
export interface OutputBy {
  arg: string;
  media: Record<string, MediaType>;
}

/** How a POST operation receives its main input besides the query string. */
export type BodySpec =
  /**
   * Raw `text/plain` body (also accepted as JSON `{<field>: ...}` for MCP clients); `maxBytes`: the
   * route's body limit when it is not BODY_LIMIT (an XYZ trajectory of the original's 5 MB).
   */
  | { kind: 'text'; field: string; maxBytes?: number }
  /**
   * multipart/form-data upload of the file field `field`; its bytes reach the task base64-encoded
   * in the argument `into` (the same argument MCP clients send), its file name in `filenameInto`.
   * Other form fields are arguments like query parameters. With `magic`, an upload that does not
   * start with those bytes is refused at once (400) instead of failing later in its job.
   */
  | { kind: 'multipart'; field: string; into: string; filenameInto?: string; magic?: { bytes: string; what: string } }
  /** JSON object body whose properties are arguments. */
  | { kind: 'json' };

export interface OpDef<S extends z.ZodObject = z.ZodObject, T extends string = string, N extends string = string> {
  /** Tool name, spelled exactly as in the seed (it is also the OpenAPI operationId). */
  name: N;
  method: 'GET' | 'POST';
  /** Path without version prefix, e.g. `/convert/canonicalsmiles`. */
  path: string;
  summary: string;
  description?: string;
  /** OpenAPI tag (`chem`, `convert`, `depict`, `tools`). */
  tag: string;
  args: S;
  body?: BodySpec;
  /** Media type of the answer (the default one when `outputBy` names others). */
  output: MediaType;
  /** Other media types, chosen by an argument's value (REST's Content-Type, OpenAPI, MCP content). */
  outputBy?: OutputBy;
  /**
   * The numbers of the JSON answer are floats, written as Python's json writes them: an integral
   * value keeps its `.0` (`1.0`, not `1`), as the original's answer does. The value is unchanged
   * (job records and MCP structured content carry the plain number).
   */
  floats?: boolean;
  /**
   * The successful answer's shape, for the OpenAPI document and the answer-checking test
   * (test/api/answers.ts): required for every operation that can answer `application/json`
   * (with `outputBy`, the shape of its JSON variant), absent for text, SVG, PNG and HTML answers,
   * whose media type says what they are. It describes the JSON value itself: for a long operation
   * submitted as a job (202 with `{job_id, status, status_url}`), the job's `result` once it has
   * succeeded; for an operation with an api-side handler, what that handler answers (its 202 body,
   * for a submission). With `floats`, numbers are still numbers (`1.0` is the number 1).
   */
  answer?: z.ZodType;
  /** MCP tool title; default: `summary`. */
  title?: string;
  /**
   * The operation reaches services outside this machine (an external database, a name
   * resolver): MCP's `openWorldHint`. A function decides by the process's configuration (a
   * service used only when configured). Default false.
   */
  openWorld?: boolean | ((config: Config) => boolean);
  /** quick: the HTTP call waits for the result; long: 202 + job id at once. */
  mode: 'quick' | 'long';
  /** Name of the worker task that computes the result (its handler: see `OpTasks`). */
  task: T;
  /**
   * `'api'`: the operation is orchestrated in the api process (no RDKit there) by its api-side
   * handler, `API_HANDLERS[name]` (api/chem/handlers/), which REST and MCP call instead of
   * submitting `task` directly. The handler may submit jobs through `runner` (usually `task`
   * itself), read job records, or answer from the catalog store first. The registry only carries
   * this flag: the handler table is checked against it at compile time (`ApiHandlers`,
   * api/chem/context.ts).
   */
  handler?: 'api';
  /** Client-error statuses the operation answers besides 422 (documented in the OpenAPI document). */
  clientErrors?: readonly number[];
  /** HTTP status of a successful answer (default 200; 202 for a submission). */
  successStatus?: number;
  /**
   * Example calls: the OpenAPI document shows the first as parameter examples, and the HTTP and
   * MCP tests call every operation with it and compare the answer with its `expected` value
   * (test/api/samples.ts adds only what the registry cannot carry: uploads, and the external
   * services of the test environment).
   */
  examples?: OpExample[];
}

export interface OpExample {
  query: Record<string, string>;
  /** The raw text body of an operation with `body.kind === 'text'` (over MCP: the body's field). */
  text?: string;
  /** What the call answers, from an independent reference (see ExpectedAnswer). */
  expected?: ExpectedAnswer;
}

/**
 * The answer an example call must give, taken from an independent reference: native RDKit, CDK,
 * published data, or the original service's documented answers; never natprod's own output.
 * The HTTP and MCP tests compare every answer with it (test/api/expected.ts).
 */
export interface ExpectedAnswer {
  /** Compared with the parsed JSON answer, or with the text of a text, SVG or HTML answer. */
  value: Expected;
  /** Where the value comes from: the reference tool and its version, or the document it quotes. */
  source: string;
}

/**
 * A plain JSON value must equal the answer (objects: the same keys, each equal). These objects,
 * anywhere in a value, compare differently:
 * - `{$fields: {...}}`: an object with at least these fields (others are not compared);
 * - `{$unordered: [...]}`: an array with these members in any order;
 * - `{$molblock: MolblockShape}`: a V2000 molblock with this connection table (and bond lengths);
 * - `{$svg: SvgShape}`: an SVG drawing of these bonds and atom labels (RDKit's `bond-n`/`atom-n` classes);
 * - `{$html: {molblock: MolblockShape}}`: an HTML page that embeds such a molblock (a JSON string literal);
 * - `{$cxsmiles: {smiles, lengths}}`: a CXSMILES whose SMILES is `smiles` and whose coordinates put
 *   bonded atoms (1-based, in SMILES order) at these distances.
 */
export type Expected =
  | null
  | boolean
  | number
  | string
  | Expected[]
  | { $fields: Record<string, Expected> }
  | { $unordered: Expected[] }
  | { $molblock: MolblockShape }
  | { $svg: SvgShape }
  | { $html: { molblock: MolblockShape } }
  | { $cxsmiles: { smiles: string; lengths: [number, number, number][] } }
  | { [key: string]: Expected };

/** A molblock's connection table, as its V2000 atom and bond blocks list it (coordinates aside). */
export interface MolblockShape {
  /** Element symbols, in atom order. */
  atoms: string[];
  /** `[from, to, order]`, atoms 1-based; compared as a set (a writer may list bonds in another order). */
  bonds: [number, number, number][];
  /** The dimension code of the header line (columns 21-22); `2D` also requires every z to be 0. */
  dim: '2D' | '3D';
  /** Lengths in Å of `bonds`, in their order, each within `tolerance`. */
  lengths?: number[];
  tolerance?: number;
}

/** What an RDKit SVG drawing shows, as its element classes say. */
export interface SvgShape {
  width: number;
  height: number;
  /** Bonds drawn, as atom index pairs (0-based, `class='bond-n atom-a atom-b'`). */
  bonds: [number, number][];
  /** Atoms drawn with a label (`class='atom-n'`), 0-based. */
  labels: number[];
}

/** The media type an operation answers for these (validated) arguments. */
export function mediaTypeOf(op: Pick<OpDef, 'output' | 'outputBy'>, args: Record<string, unknown>): MediaType {
  const by = op.outputBy;
  const value = by ? args[by.arg] : undefined;
  return (by && typeof value === 'string' && Object.hasOwn(by.media, value) ? by.media[value] : undefined) ?? op.output;
}

/** Every media type an operation may answer, its default first. */
export function mediaTypesOf(op: Pick<OpDef, 'output' | 'outputBy'>): MediaType[] {
  return [...new Set([op.output, ...Object.values(op.outputBy?.media ?? {})])];
}

/**
 * A result whose media type differs from the operation's default (e.g. `format=html`): the HTTP
 * layer sends `body` verbatim with `mediaType`; MCP returns `body` as text. The body of a binary
 * media type (BINARY_MEDIA, e.g. `image/png`) is base64: the HTTP layer sends the bytes, MCP an
 * image content.
 */
export interface MediaResult {
  mediaType: MediaType;
  body: string;
}

/**
 * A result that also tells how it was obtained: the HTTP layer sends `value` as if it had been
 * returned bare, plus `headers`; MCP adds `note` as a second text content after the result.
 * (generate_smiles names the resolver of a chemical name this way; docs/names.md.)
 */
export class AnnotatedResult {
  constructor(
    readonly value: unknown,
    readonly headers: Record<string, string>,
    readonly note?: string,
  ) {}
}

export function isMediaResult(v: unknown): v is MediaResult {
  return !!v && typeof v === 'object' && typeof (v as MediaResult).mediaType === 'string'
    && typeof (v as MediaResult).body === 'string' && Object.keys(v).length === 2;
}

export interface TaskContext {
  rdkit: RDKit;
  /** The thread's configuration, given by the process that started the pool (shared/config.ts, threadConfig). */
  config: ThreadConfig;
  /** Aborted when the job is cancelled or times out; long tasks poll `signal.aborted`. */
  signal: AbortSignal;
  /** Report progress (0..100 or a small JSON object). */
  progress(value: number | Record<string, unknown>): void;
}

export type TaskHandler = (args: any, ctx: TaskContext) => unknown | Promise<unknown>;
export type TaskTable = Record<string, TaskHandler>;

/**
 * The worker-task handlers of a family's operations: one per operation's `task`, each receiving
 * that operation's validated arguments (`z.output` of its schema). A family's task table is
 * declared `{...} satisfies OpTasks<typeof familyOps>`, so a missing, extra or misnamed handler,
 * or a handler that expects other arguments than its schema gives, is a compile error.
 * Operations with an api-side handler (`handler: 'api'`) are left out: their task is an internal
 * task (declared with its own zod schema, shared/ops/task-args.ts) that the handler submits.
 */
export type OpTasks<Ops extends readonly OpDef<any, string, string>[]> = {
  [O in Ops[number] as O extends { handler: 'api' } ? never : O['task']]: (args: z.output<O['args']>, ctx: TaskContext) => unknown;
};

/**
 * Identity helper that keeps the schema, task-name and tool-name types for `args` inference,
 * task maps and the api-handler table. An operation flagged `handler: 'api'` is typed as such.
 */
export function defineOp<S extends z.ZodObject, const T extends string, const N extends string>(
  op: OpDef<S, T, N> & { handler: 'api' },
): OpDef<S, T, N> & { handler: 'api' };
export function defineOp<S extends z.ZodObject, const T extends string, const N extends string>(op: OpDef<S, T, N>): OpDef<S, T, N>;
export function defineOp(op: OpDef): OpDef {
  return op;
}

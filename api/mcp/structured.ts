/**
 * Structured results (MCP 2025-06-18): every tool whose answer is JSON declares an `outputSchema`
 * and answers `structuredContent` that validates against it, beside the text content older
 * clients read. Decided here, once, for both kinds of tool:
 *
 * - registry (chemistry) tools whose every media type is `application/json`: the registry
 *   describes arguments, not answers, and many answers are strings, numbers or arrays, which
 *   structured content (an object) cannot be. So the answer is wrapped: `{result: <the JSON body
 *   REST answers>}` (a long call still running after LONG_TASK_TIMEOUT_MS: the job submission
 *   REST answers with its 202). Drawings (SVG/PNG), molblocks and HTML have no outputSchema.
 * - catalog tools: their answers are JSON objects (the REST route's body), given as they are.
 *
 * Failures (`isError`) carry no structured content, as the protocol allows.
 */
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { mediaTypesOf, type OpDef } from '../../shared/ops/types.ts';

type OutputSchema = NonNullable<Tool['outputSchema']>;

/** The outputSchema of a registry tool: `{result}`, or none when an answer can be other than JSON. */
export function registryOutputSchema(op: Pick<OpDef, 'name' | 'output' | 'outputBy'>): OutputSchema | undefined {
  if (mediaTypesOf(op).some((m) => m !== 'application/json')) return undefined;
  return {
    type: 'object',
    title: `${op.name}Result`,
    properties: {
      result: { title: 'Result', description: 'The JSON body the REST operation answers (a string, number, array or object); a job submission {job_id, status, status_url} when the call outlived its wait' },
    },
    required: ['result'],
  };
}

/** The outputSchema of a catalog tool: the REST route's JSON object (described in the tool's description). */
export function catalogOutputSchema(name: string): OutputSchema {
  return { type: 'object', title: `${name}Result`, description: 'The JSON object the REST route answers', additionalProperties: true };
}

/** A catalog tool with its outputSchema (one it declares itself is kept). */
export function withCatalogOutput<T extends { tool: Tool }>(entry: T): T {
  return entry.tool.outputSchema ? entry : { ...entry, tool: { ...entry.tool, outputSchema: catalogOutputSchema(entry.tool.name) } };
}

/** A JSON answer: pretty-printed text, and the value as structured content (wrapped when not an object). */
export function jsonResult(value: unknown, wrap: boolean): CallToolResult {
  const text = JSON.stringify(value ?? null, null, 2);
  const isObject = typeof value === 'object' && value !== null && !Array.isArray(value);
  const structuredContent = wrap || !isObject ? { result: value ?? null } : (value as Record<string, unknown>);
  return { content: [{ type: 'text', text }], structuredContent };
}

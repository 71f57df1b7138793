/**
 * The chemistry operations in the OpenAPI document: one operation per registry entry (the tool
 * name as operationId), its parameters from the same zod schema the route validates with, its
 * answer's media types and, for JSON answers, the schema the registry declares (`answer`).
 */
import { z } from 'zod';
import { mediaTypesOf, type OpDef } from '../../shared/ops/types.ts';
import { detailErrors, ref, type Schema } from './components.ts';

/**
 * JSON Schema of an operation's arguments as a client sends them, with each argument's default
 * (zod drops defaults of preprocessed values, so they are read back by parsing `undefined`).
 */
export function argsJsonSchema(op: OpDef): { type: 'object'; properties: Record<string, Record<string, unknown>>; required: string[] } {
  const schema = z.toJSONSchema(op.args, { io: 'input', unrepresentable: 'any' }) as {
    properties?: Record<string, Record<string, unknown>>;
    required?: string[];
  };
  const properties: Record<string, Record<string, unknown>> = {};
  for (const [key, prop] of Object.entries(schema.properties ?? {})) {
    const field = op.args.shape[key] as z.ZodType;
    const dflt = field.safeParse(undefined);
    properties[key] = { title: key, ...prop, ...(dflt.success && dflt.data !== undefined ? { default: dflt.data } : {}) };
  }
  return { type: 'object', properties, required: schema.required ?? [] };
}

const MEDIA_EXAMPLE: Record<string, Record<string, unknown>> = {
  'application/json': { schema: {} },
  'text/plain': { schema: { type: 'string' } },
  'image/svg+xml': { schema: { type: 'string' } },
  'text/html': { schema: { type: 'string' } },
  'image/png': { schema: { type: 'string', format: 'binary' } },
};

/** The JSON Schema of an operation's JSON answer (its registry `answer`), or any JSON where none is declared. */
function answerSchema(op: OpDef): Schema {
  const answer = op.answer;
  return answer ? (z.toJSONSchema(answer, { io: 'output', unrepresentable: 'any' }) as Schema) : {};
}

/** An example's query value (a string) as the parameter's type: `2`, not `"2"`, for an integer. */
function exampleValue(raw: string, schema: Record<string, unknown>): unknown {
  if ((schema.type === 'integer' || schema.type === 'number') && raw.trim() !== '' && Number.isFinite(Number(raw))) return Number(raw);
  if (schema.type === 'boolean' && (raw === 'true' || raw === 'false')) return raw === 'true';
  return raw;
}

export function chemOperation(op: OpDef) {
  const args = argsJsonSchema(op);
  const pathParams = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
  const inBody = new Set<string>();
  let requestBody: Record<string, unknown> | undefined;
  if (op.body?.kind === 'text') {
    inBody.add(op.body.field);
    requestBody = {
      required: true,
      content: {
        'text/plain': { schema: { type: 'string' } },
        'application/json': { schema: { type: 'object', properties: { [op.body.field]: args.properties[op.body.field] } } },
      },
    };
  } else if (op.body?.kind === 'multipart') {
    const { field, into, filenameInto } = op.body;
    inBody.add(into);
    if (filenameInto) inBody.add(filenameInto);
    requestBody = {
      required: true,
      content: {
        'multipart/form-data': {
          schema: { type: 'object', properties: { [field]: { type: 'string', format: 'binary' } }, required: [field] },
        },
        'application/json': { schema: { type: 'object', properties: Object.fromEntries([...inBody].map((k) => [k, args.properties[k]])) } },
      },
    };
  } else if (op.body?.kind === 'json') {
    // Every argument but the path's is a property of the JSON body (as the original's `Body(embed=True)` parameters).
    const props = Object.keys(args.properties).filter((k) => !pathParams.includes(k));
    for (const k of props) inBody.add(k);
    const example = op.examples?.[0]?.query;
    requestBody = {
      required: true,
      content: {
        'application/json': {
          schema: { type: 'object', properties: Object.fromEntries(props.map((k) => [k, args.properties[k]])), ...(args.required.length ? { required: args.required.filter((k) => props.includes(k)) } : {}) },
          ...(example ? { example: Object.fromEntries(Object.entries(example).map(([k, v]) => [k, exampleValue(v, args.properties[k] ?? {})])) } : {}),
        },
      },
    };
  }
  const parameters = Object.entries(args.properties)
    .filter(([k]) => !inBody.has(k))
    .map(([name, schema]) => ({
      name,
      in: pathParams.includes(name) ? 'path' : 'query',
      required: pathParams.includes(name) || args.required.includes(name),
      description: schema.description,
      schema,
      ...(op.examples?.[0]?.query[name] !== undefined ? { example: exampleValue(op.examples[0].query[name], schema) } : {}),
    }));
  parameters.push({
    name: 'async',
    in: 'query',
    required: false,
    description: 'Answer 202 with a job id at once instead of waiting for the result',
    schema: { type: 'boolean', default: false } as never,
  });
  // `format=html` (descriptors) answers an HTML table beside the registry's JSON.
  const formats = (args.properties.format as { enum?: string[] } | undefined)?.enum ?? [];
  const media = [...new Set([...mediaTypesOf(op), ...(formats.includes('html') ? ['text/html' as const] : [])])];
  // A long operation answers 202 with its job; one with its own success status (the chemclass submission) answers that.
  const status = op.successStatus ?? (op.mode === 'long' ? 202 : 200);
  const ok = {
    description: op.outputBy
      ? `Successful response: ${media.map((m) => (m === op.output ? `${m} (default)` : `${m} when \`${op.outputBy!.arg}=${Object.keys(op.outputBy!.media).filter((k) => op.outputBy!.media[k] === m).join('|')}\``)).join(', ')}`
      : 'Successful response',
    content: Object.fromEntries(media.map((m) => [m, m === 'application/json' ? { schema: answerSchema(op) } : MEDIA_EXAMPLE[m]])),
  };
  return {
    operationId: op.name,
    tags: [op.tag],
    security: [],
    summary: op.summary,
    description: `${op.description ?? ''}${op.mode === 'long' ? '\n\nLong operation: answers 202 `{job_id, status, status_url}`; poll the status URL.' : ''}`.trim(),
    parameters,
    ...(requestBody ? { requestBody } : {}),
    responses: {
      ...(status === 202 && !op.successStatus ? {} : { [String(status)]: ok }),
      ...(status === 202 && op.successStatus
        ? {}
        : {
            '202': {
              description: op.mode === 'long' ? 'The job, started: poll `status_url`; its `result` is the answer' : 'With `async=true`: the job, started; poll `status_url`',
              content: { 'application/json': { schema: ref('JobSubmission') } },
            },
          }),
      ...detailErrors(...new Set([...(op.method === 'POST' ? [400, 413, 415] : []), ...(op.clientErrors ?? []), ...(pathParams.length ? [404] : []), 409, 422, 429, 503, 504])),
    },
  };
}


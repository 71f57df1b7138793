/**
 * Reusable argument schemas. Query strings arrive as strings and MCP arguments as JSON
 * values, so every scalar accepts both spellings (`"5"` and `5`, `"true"` and `true`).
 */
import { z } from 'zod';

export const MAX_SMILES = 100_000;

export const smiles = (description = 'SMILES string of the input molecule') =>
  z.string().min(1, 'SMILES must not be empty').max(MAX_SMILES).describe(description);

/** `toolkit` enum with an explicit list of what this implementation supports. */
export const toolkit = <const T extends readonly [string, ...string[]]>(values: T, dflt: T[number] = values[0]) =>
  z.enum(values).default(dflt as never).describe(`Chemistry toolkit: ${values.join(', ')}`);

const TRUE = new Set(['true', '1', 'yes', 'on', 't', 'y']);
const FALSE = new Set(['false', '0', 'no', 'off', 'f', 'n']);

/** Boolean accepting true/false/1/0/yes/no/on/off in any case, as FastAPI does. */
export const bool = (dflt: boolean, description: string) =>
  z
    .preprocess((v) => {
      if (typeof v === 'boolean') return v;
      if (typeof v === 'number') return v === 1 ? true : v === 0 ? false : v;
      if (typeof v === 'string') {
        const s = v.trim().toLowerCase();
        if (TRUE.has(s)) return true;
        if (FALSE.has(s)) return false;
      }
      return v;
    }, z.boolean())
    .default(dflt)
    .describe(description);

/** Integer from a number or a numeric string, within bounds. */
export const int = (dflt: number | undefined, min: number, max: number, description: string) => {
  const base = z.preprocess(
    (v) => (typeof v === 'string' && v.trim() !== '' && /^[-+]?\d+$/.test(v.trim()) ? Number(v) : v),
    z.number().int().min(min).max(max),
  );
  return (dflt === undefined ? base : base.default(dflt)).describe(description);
};

/** Floating-point number from a number or a numeric string. */
export const num = (dflt: number | undefined, min: number, max: number, description: string) => {
  const base = z.preprocess(
    (v) => (typeof v === 'string' && v.trim() !== '' && !Number.isNaN(Number(v)) ? Number(v) : v),
    z.number().min(min).max(max),
  );
  return (dflt === undefined ? base : base.default(dflt)).describe(description);
};

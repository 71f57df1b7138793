/**
 * COCONUT's filter language (`type: "filters"`), parsed: `key:value` conditions, a space between
 * two conditions means AND, the word `OR` on its own separates alternatives. Values: a range
 * `a..b` (natprod: either end may be left open), one number, `true`/`false`, or text where `+`
 * stands for a space (`class:Prenol+lipids`). Keys: filter-map.ts.
 *
 * Where COCONUT's parser goes wrong, this one does not (docs/differences.md): COCONUT URL-decodes
 * the query, which turns `+` into a space, and then splits at every space, so a class of two words
 * (`class:Unsaturated+hydrocarbons`) breaks the query (COCONUT issue #818); here a word without
 * `key:` continues the value before it, and `+` is a space inside values. COCONUT splits at the
 * letters `OR` wherever they occur (`superclass:ORGANIC...` is cut in two); here only the word `OR`.
 */
import { FILTER_KEYS, type FilterKey } from './filter-map.ts';

export type Condition =
  | { key: string; def: FilterKey; kind: 'number'; min?: number; max?: number }
  | { key: string; def: FilterKey; kind: 'boolean'; value: boolean }
  | { key: string; def: FilterKey; kind: 'class' | 'organisms' | 'citations'; text: string }
  | { key: string; def: FilterKey; kind: 'formula'; formula: string }
  | { key: string; def: FilterKey; kind: 'collections'; sources: string[] };

/** Alternatives (OR) of conditions that must all hold (AND). */
export type ParsedFilters = Condition[][];

/** A problem in the query, worded for the 422 (`errors.query`). */
export class FilterSyntaxError extends Error {}

const KEY_TOKEN = /^([A-Za-z_][A-Za-z0-9_]*):(.*)$/s;
const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
const KEY_LIST = Object.keys(FILTER_KEYS).join(', ');

function num(text: string, key: string): number {
  if (!NUMBER.test(text)) throw new FilterSyntaxError(`The value of ${key} must be a number or a range a..b; "${text}" is not a number.`);
  return Number(text);
}

function condition(key: string, raw: string): Condition {
  const def = FILTER_KEYS[key];
  if (!def) throw new FilterSyntaxError(`Unknown filter key "${key}": the keys are ${KEY_LIST}.`);
  if (def.unsupported) throw new FilterSyntaxError(`The filter key "${key}" (COCONUT's ${def.coconut}) is not available: ${def.unsupported}.`);
  const value = raw.trim();
  if (!value) throw new FilterSyntaxError(`The filter ${key}: has no value.`);
  switch (def.kind) {
    case 'number': {
      if (!value.includes('..')) {
        const n = num(value, key);
        return { key, def, kind: 'number', min: n, max: n };
      }
      const parts = value.split('..');
      if (parts.length !== 2 || (!parts[0] && !parts[1])) throw new FilterSyntaxError(`The range of ${key} must be a..b (either end may be left out); "${value}" is not one.`);
      const min = parts[0] ? num(parts[0], key) : undefined;
      const max = parts[1] ? num(parts[1], key) : undefined;
      if (min !== undefined && max !== undefined && min > max) throw new FilterSyntaxError(`The range of ${key} is empty: ${min} is greater than ${max}.`);
      return { key, def, kind: 'number', min, max };
    }
    case 'boolean': {
      const v = value.toLowerCase();
      if (v !== 'true' && v !== 'false') throw new FilterSyntaxError(`The value of ${key} must be true or false, not "${value}".`);
      return { key, def, kind: 'boolean', value: v === 'true' };
    }
    case 'formula':
      return { key, def, kind: 'formula', formula: value };
    case 'collections': {
      // COCONUT's form sends `ds:a+b|`: the sources before the first `|`.
      const sources = value.split('|')[0].split('+').map((s) => s.trim()).filter(Boolean);
      if (!sources.length) throw new FilterSyntaxError(`The filter ${key}: names no source.`);
      return { key, def, kind: 'collections', sources };
    }
    default: {
      const text = value.replace(/\+/g, ' ').replace(/\s+/g, ' ').trim();
      if (!text) throw new FilterSyntaxError(`The filter ${key}: has no value.`);
      return { key, def, kind: def.kind, text };
    }
  }
}

export function parseFilters(query: string): ParsedFilters {
  const branches: ParsedFilters = [];
  let pending: { key: string; words: string[] }[] = [];
  const close = () => {
    if (!pending.length) throw new FilterSyntaxError('Every side of OR needs a key:value condition.');
    branches.push(pending.map((p) => condition(p.key, p.words.join(' '))));
    pending = [];
  };
  const words = query.split(/\s+/).filter(Boolean);
  if (!words.length) return [];
  for (const w of words) {
    if (w === 'OR') {
      close();
      continue;
    }
    const m = KEY_TOKEN.exec(w);
    if (m) pending.push({ key: m[1].toLowerCase(), words: [m[2]] });
    else if (pending.length) pending[pending.length - 1].words.push(w);
    else throw new FilterSyntaxError(`"${w}" is not a key:value condition (keys: ${KEY_LIST}).`);
  }
  close();
  return branches;
}

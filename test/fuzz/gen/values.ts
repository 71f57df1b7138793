/**
 * Hostile scalar and JSON values, whatever the parameter: the strings, numbers and shapes that
 * break parsers (control characters, lone surrogates, huge and deeply nested values, operator and
 * prototype keys, numbers beyond every range).
 */
import type { Rng } from '../prng.ts';

export const CONTROL = Array.from({ length: 32 }, (_, i) => String.fromCharCode(i)).concat('\u007f');
const UNICODE = ['\u0000', '\u200b', '\ufeff', '\u202e', '\ud800', '\udfff', '\ud83d\ude00', 'é', 'Ω', '中', '\u0301', '\uffff', '\u2028'];

export const INJECTION_STRINGS = [
  "' OR 1=1 --", '"; DROP TABLE molecules; --', '{"$gt":""}', '{"$where":"sleep(1000)"}', '$where', '$regex', '$ne',
  '__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', '../../../../etc/passwd', '..\\..\\windows', '%00',
  '${7*7}', '{{7*7}}', '<script>alert(1)</script>', '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><x>&e;</x>',
  'NaN', 'Infinity', '-Infinity', 'undefined', 'null', 'true', '[]', '{}', '%', '%%', '%s%s%s%n', '\\', '\\\\', '\\u0000',
];

export const NUMBER_STRINGS = [
  '0', '-0', '-1', '1', '2', '1.5', '-1.5', '1e309', '-1e309', '1e-400', 'NaN', 'Infinity', '-Infinity', '0x10', '0b11', '0o7', '1_000',
  ' 5 ', '5abc', '+5', '05', '5.0', '5.', '.5', '9007199254740993', '-9007199254740993', '99999999999999999999999', '1e2', '2147483648',
  '-2147483649', '4294967296', '', ' ', 'true', 'false', '١٢', '５',
];

export const NUMBERS = [0, -0, -1, 1, 0.5, -0.5, 1e308, -1e308, 5e-324, 2 ** 31, 2 ** 31 - 1, -(2 ** 31), 2 ** 32, 2 ** 53, 2 ** 53 + 2, -(2 ** 53), 1e21, 123456789.123];

export function controlString(rng: Rng): string {
  const n = rng.int(1, 12);
  let s = '';
  for (let i = 0; i < n; i++) s += rng.bool(0.7) ? rng.pick(CONTROL) : rng.pick(UNICODE);
  return s;
}

export function whitespace(rng: Rng): string {
  return Array.from({ length: rng.int(1, 6) }, () => rng.pick([' ', '\t', '\n', '\r', '\u00a0', '\u3000', '\v', '\f'])).join('');
}

/** A string chosen to hurt: empty, blank, control, unicode junk, injection, huge, numeric-looking. */
export function hostileString(rng: Rng): string {
  return rng.weighted<() => string>([
    [2, () => ''],
    [3, () => whitespace(rng)],
    [3, () => controlString(rng)],
    [4, () => rng.pick(INJECTION_STRINGS)],
    [3, () => rng.pick(NUMBER_STRINGS)],
    [2, () => rng.pick(['a', 'x', 'C', 'O']).repeat(rng.pick([100, 1000, 10_000, 100_001]))],
    [1, () => rng.pick(UNICODE).repeat(rng.int(1, 3000))],
    [2, () => randomPrintable(rng, rng.size(300))],
  ])();
}

export function randomPrintable(rng: Rng, n: number): string {
  let s = '';
  for (let i = 0; i < n; i++) s += String.fromCharCode(rng.int(32, 126));
  return s;
}

/** Any JSON value, hostile more often than not; objects may carry operator or prototype keys. */
export function hostileJson(rng: Rng, depth = 0): unknown {
  const leaf = depth > 3;
  return rng.weighted<() => unknown>([
    [2, () => null],
    [2, () => rng.bool()],
    [3, () => rng.pick(NUMBERS)],
    [4, () => hostileString(rng)],
    [leaf ? 0 : 2, () => Array.from({ length: rng.size(6) }, () => hostileJson(rng, depth + 1))],
    [leaf ? 0 : 2, () => operatorObject(rng, depth + 1)],
    [1, () => deepArray(rng.pick([10, 100, 1000]))],
  ])();
}

/** `{"$gt": ...}` and friends: what a MongoDB-backed store must never take as an operator. */
export function operatorObject(rng: Rng, depth = 0): Record<string, unknown> {
  const key = rng.pick(['$gt', '$ne', '$regex', '$where', '$in', '$exists', '$expr', '$function', '$or', '$nin', '$not', '$set', '$unset', 'field.$', '$']);
  const value = rng.weighted<() => unknown>([
    [3, () => ''],
    [2, () => null],
    [2, () => '.*'],
    [1, () => 'function() { while(true) {} }'],
    [1, () => []],
    [depth > 3 ? 0 : 1, () => hostileJson(rng, depth + 1)],
  ])();
  return { [key]: value };
}

/** `[[[...]]]` n deep. */
export function deepArray(n: number): unknown {
  let v: unknown = [];
  for (let i = 0; i < n; i++) v = [v];
  return v;
}

/** JSON text of an object with a `__proto__` or `constructor.prototype` key (JSON.stringify cannot write the first). */
export function pollutedJsonText(rng: Rng, inner: Record<string, unknown> = {}): string {
  const base = JSON.stringify(inner);
  const payload = rng.pick([
    '"__proto__":{"isAdmin":true,"role":"admin"}',
    '"constructor":{"prototype":{"isAdmin":true}}',
    '"__proto__":{"toString":"x"}',
    '"__proto__":null',
    '"constructor":{"prototype":null}',
    '"__proto__":[1,2,3]',
  ]);
  return base === '{}' ? `{${payload}}` : `{${payload},${base.slice(1)}`;
}

/** Percent-encoding of the UTF-8 bytes (lone surrogates become U+FFFD, as any client's would). */
export function pct(s: string): string {
  let out = '';
  for (const b of Buffer.from(s, 'utf8')) {
    const c = String.fromCharCode(b);
    out += /[A-Za-z0-9\-_.~]/.test(c) ? c : `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

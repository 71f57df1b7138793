/**
 * SQL LIKE → anchored, case-sensitive regular expression that runs in linear-ish time (ILIKE:
 * the same, case-insensitive: the `i` flag, which V8 and MongoDB's PCRE both apply).
 * `%` = any run, `_` = one character, `\` escapes the next character; everything else is literal
 * (escaped). Each `%`-separated segment after the first is matched at its leftmost occurrence
 * inside an atomic lookahead with a back-reference, `(?=([\s\S]*?seg))\1`: a lookahead never
 * backtracks, so patterns like `%a%a%a%a%b` cannot blow up (no ReDoS). Leftmost is optimal
 * because every segment has a fixed length. Works the same in V8 (nedb) and PCRE (MongoDB).
 */
const META = /[.*+?^${}()|[\]\\/-]/g;

interface Parsed {
  segments: string[]; // regex source of each %-separated segment
  prefix: string; // literal prefix before the first wildcard
}

function parse(pattern: string): Parsed {
  const segments: string[] = [''];
  let prefix = '';
  let literal = true;
  for (let i = 0; i < pattern.length; i++) {
    let c = pattern[i];
    if (c === '\\' && i + 1 < pattern.length) {
      c = pattern[++i];
      segments[segments.length - 1] += c.replace(META, '\\$&');
      if (literal) prefix += c;
      continue;
    }
    if (c === '%') {
      literal = false;
      if (segments[segments.length - 1] !== '' || segments.length === 1) segments.push('');
      continue;
    }
    if (c === '_') {
      literal = false;
      segments[segments.length - 1] += '[\\s\\S]';
      continue;
    }
    segments[segments.length - 1] += c.replace(META, '\\$&');
    if (literal) prefix += c;
  }
  return { segments, prefix };
}

/**
 * Most runs of `%` in one pattern. Each run between two segments is a lookahead group, and a
 * pattern of thousands (`%_%_%_...`) overflows the regex compiler's stack: such a filter is a 422.
 */
export const MAX_LIKE_WILDCARDS = 32;

/** Runs of `%` in a pattern (consecutive `%` are one run; an escaped `\%` is none). */
export function likeWildcards(pattern: string): number {
  return parse(pattern).segments.length - 1;
}

/** `caseless`: ILIKE; its literal prefix is then no index range (other cases sort elsewhere), so `prefix` is empty. */
export function likeToRegex(pattern: string, caseless = false): { regex: RegExp; prefix: string } {
  const parsed = parse(pattern);
  const { segments } = parsed;
  const prefix = caseless ? '' : parsed.prefix;
  const flags = caseless ? 'i' : '';
  if (segments.length === 1) return { regex: new RegExp(`^${segments[0]}$`, flags), prefix };
  let src = `^${segments[0]}`;
  const last = segments[segments.length - 1];
  for (let k = 1; k < segments.length - 1; k++) {
    src += `(?=([\\s\\S]*?${segments[k]}))\\${k}`;
  }
  src += `[\\s\\S]*${last}$`;
  return { regex: new RegExp(src, flags), prefix };
}

/** Upper bound for a literal prefix range (only for ASCII-final prefixes, else null). */
export function prefixUpperBound(prefix: string): string | null {
  if (!prefix) return null;
  const code = prefix.charCodeAt(prefix.length - 1);
  if (code >= 0x7e) return null;
  return prefix.slice(0, -1) + String.fromCharCode(code + 1);
}

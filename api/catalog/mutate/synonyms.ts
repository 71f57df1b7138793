/**
 * Synonyms as COCONUT keeps them (app/Console/Commands/SynonymDedupe.php, development branch,
 * `removeSimilarStrings`): in their order, each synonym is kept unless PHP's `similar_text`
 * percentage with a synonym kept before it is 90 or more. `similar_text` compares characters as
 * they are, so the comparison is case-sensitive ("QUERCETIN" and "Quercetin" are both kept),
 * although the command's description says "not case sensitive": natprod follows the code, so that
 * its synonyms are the ones COCONUT's data holds. Applied to every write of `synonyms` by mutate.
 */

type Bytes = Uint8Array;
const utf8 = new TextEncoder();

/** PHP's `similar_text` count on bytes: the first longest common run, then the same on its left and right parts. */
export function similarChars(a: Bytes, b: Bytes): number {
  if (!a.length || !b.length) return 0;
  let max = 0;
  let pa = 0;
  let pb = 0;
  // PHP keeps the first longest run, scanning a, then b.
  for (let i = 0; i < a.length; i++) {
    for (let j = 0; j < b.length; j++) {
      let k = 0;
      while (i + k < a.length && j + k < b.length && a[i + k] === b[j + k]) k++;
      if (k > max) {
        max = k;
        pa = i;
        pb = j;
      }
    }
  }
  if (!max) return 0;
  return max + similarChars(a.subarray(0, pa), b.subarray(0, pb)) + similarChars(a.subarray(pa + max), b.subarray(pb + max));
}

/** Bytes both hold (as multisets): an upper bound of similarChars, in linear time. */
function commonBytes(a: Bytes, b: Bytes): number {
  const counts = new Int32Array(256);
  for (const x of a) counts[x]++;
  let n = 0;
  for (const x of b) if (counts[x]-- > 0) n++;
  return n;
}

const percent = (sim: number, a: Bytes, b: Bytes) => (a.length + b.length ? (sim * 2 * 100) / (a.length + b.length) : 0);

/** PHP's `similar_text($a, $b, $percent)` percentage: matched bytes × 2 × 100 / both lengths in bytes. */
export function similarPercent(a: string, b: string): number {
  const x = utf8.encode(a);
  const y = utf8.encode(b);
  return percent(similarChars(x, y), x, y);
}

/** Longest synonym compared character by character; a longer one is compared by equality only (the quadratic scan stays bounded). */
const MAX_COMPARED = 512;

/** COCONUT's dedupe threshold (percent). */
export const SYNONYM_SIMILARITY = 90;

/** The synonyms COCONUT's dedupe keeps, in their order. */
export function dedupeSynonyms(synonyms: string[]): string[] {
  const kept: { s: string; b: Bytes }[] = [];
  const close = (x: Bytes, y: Bytes) => {
    if (x.length > MAX_COMPARED || y.length > MAX_COMPARED) return x.length === y.length && x.every((v, i) => v === y[i]);
    // cheap bound first: most pairs are far apart
    if (percent(commonBytes(x, y), x, y) < SYNONYM_SIMILARITY) return false;
    return percent(similarChars(x, y), x, y) >= SYNONYM_SIMILARITY;
  };
  for (const s of synonyms) {
    const b = utf8.encode(s);
    if (!kept.some((k) => close(b, k.b))) kept.push({ s, b });
  }
  return kept.map((k) => k.s);
}

/**
 * `annotation_level`: COCONUT's annotation score (app/Console/Commands/GenerateAnnotationScore.php,
 * development branch, `calculateAnnotationScore`, lines 97-120). Each of six facts scores 1 or 0:
 * a CAS number (l. 100), synonyms (l. 101), a name (l. 102), at least one citation (l. 103: `>= 2`
 * and `>= 1` both give 1), at least one organism (l. 104), at least one collection (l. 105);
 * weighted 0.25 citations, 0.20 organisms, 0.15 collections, 0.15 CAS, 0.15 synonyms, 0.10 name
 * (l. 108-113), times 5, rounded to 2 places, then rounded up (l. 116-119). So 0..5.
 *
 * COCONUT reads the raw columns: `cas` and `synonyms` count when not null and not empty. natprod
 * stores lists, so an empty list counts as none (COCONUT would count the JSON text `[]` of an empty
 * CAS column as present). Its command scores active molecules only; natprod scores every molecule.
 */

/** The molecule fields the score reads. */
export const ANNOTATION_INPUTS = ['name', 'cas', 'synonyms', 'organism_ids', 'citation_ids', 'collection_ids'] as const;

const present = (v: unknown) => (Array.isArray(v) ? v.length > 0 : typeof v === 'string' ? v !== '' : v !== null && v !== undefined);
const atLeastOne = (v: unknown) => (Array.isArray(v) && v.length >= 1 ? 1 : 0);

export function annotationLevel(m: Record<string, unknown>): number {
  const cas = present(m.cas) ? 1 : 0;
  const synonyms = present(m.synonyms) ? 1 : 0;
  const name = typeof m.name === 'string' && m.name !== '' ? 1 : 0;
  const total = atLeastOne(m.citation_ids) * 0.25 + atLeastOne(m.organism_ids) * 0.2 + atLeastOne(m.collection_ids) * 0.15 + cas * 0.15 + synonyms * 0.15 + name * 0.1;
  // PHP round($x, 2) (half away from zero; x >= 0 here), then ceil: 0.6 * 5 = 3.0000000000000004 is 3, not 4
  return Math.ceil(Math.round(total * 5 * 100) / 100);
}

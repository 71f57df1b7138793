/**
 * Stereo parents and variants, as COCONUT models them: a variant's `parent_id` is the molecule of
 * the same structure without stereo (its "parent" representation; app/Console/Commands/CisTransFix/
 * ImportCisTransEntries.php creates it with `is_parent`), a parent's `variants_count` counts the
 * molecules that name it and `has_variants` is set on the parent and on every variant
 * (UpdateParentVariantsCounts.php; ImportCisTransEntries.php: "This is for all variants"); the
 * identifiers follow (`CNP0000001` the parent, `CNP0000001.1`, `.2` ... its variants, AssignIdentifiers.php;
 * identifiers.ts mints them so).
 *
 * natprod stores no `parent_id`: the family is read off the standard InChI. Molecules whose InChI
 * is the same once the stereo layers (`/b /t /m /s`, also those after an isotopic layer) are
 * removed form a family; they share the InChIKey's first block, which is how a family is fetched.
 * The member whose InChI has no stereo layer is the parent (one at most: InChIKeys are unique);
 * the others are its variants. A parent with at least one variant is `is_parent`, `has_variants`,
 * `variants_count` = its variants; a variant whose parent is in the catalog is `has_variants`;
 * every other molecule has the defaults (false, false, 0).
 */

/** Prefixes of the InChI stereo layers (double bond, tetrahedral, inverted, stereo type). */
const STEREO_LAYERS = new Set(['b', 't', 'm', 's']);

/** The standard InChI without its stereo layers (layer prefixes are lower case, formulas start upper case or with a digit). */
export function flatInchi(inchi: string): string {
  const [head, ...layers] = inchi.split('/');
  return [head, ...layers.filter((l) => !STEREO_LAYERS.has(l[0]))].join('/');
}

/** The InChIKey's first block (the skeleton): what members of one family share. */
export const keyBlock = (key: unknown): string | null => (typeof key === 'string' && /^[A-Z]{14}-/.test(key) ? key.slice(0, 14) : null);

export interface VariantFields {
  variants_count: number;
  has_variants: boolean;
  is_parent: boolean;
}

/** The variant fields of each molecule (by id) of one InChIKey first block. */
export function variantFields(members: { id: number; standard_inchi?: unknown }[]): Map<number, VariantFields> {
  const families = new Map<string, { parent?: number; variants: number[] }>();
  const none: number[] = [];
  for (const m of members) {
    if (typeof m.standard_inchi !== 'string' || !m.standard_inchi) {
      none.push(m.id);
      continue;
    }
    const flat = flatInchi(m.standard_inchi);
    const f = families.get(flat) ?? { variants: [] };
    families.set(flat, f);
    if (flat === m.standard_inchi) f.parent = m.id;
    else f.variants.push(m.id);
  }
  const out = new Map<number, VariantFields>();
  for (const id of none) out.set(id, { variants_count: 0, has_variants: false, is_parent: false });
  for (const f of families.values()) {
    const n = f.variants.length;
    if (f.parent !== undefined) out.set(f.parent, { variants_count: n, has_variants: n > 0, is_parent: n > 0 });
    for (const v of f.variants) out.set(v, { variants_count: 0, has_variants: f.parent !== undefined, is_parent: false });
  }
  return out;
}

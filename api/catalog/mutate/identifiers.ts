/**
 * Identifiers minted here follow COCONUT's stereo families (AssignIdentifiers.php: a molecule
 * without stereo gets a number, `CNP0000001`, and its stereo variants that number with a suffix,
 * `CNP0000001.1`, `.2` ...). natprod never changes an identifier once given, so it decides at
 * minting, reading the family (variants.ts: the same standard InChI once the stereo layers are
 * removed) as it is then:
 * - a molecule with stereo joins the number its family has (its parent's, or another variant's)
 *   with the family's next suffix, from a counter per number (a deleted variant's suffix is never
 *   given again); without a family here it gets a new number and the suffix `.1`, leaving the bare
 *   number to the parent without stereo, should it come;
 * - a molecule without stereo takes its family's bare number when its variants came first and the
 *   number is free, else a new bare number.
 */
import { nextIdentifier } from '../store/open.ts';
import type { CatalogStore } from '../store/types.ts';
import { flatInchi, keyBlock } from './variants.ts';

const COCONUT_STYLE = /^(CNP\d{7})(?:\.(\d+))?$/;

export async function familyIdentifier(store: CatalogStore, mol: { id?: number; standard_inchi_key?: unknown; standard_inchi?: unknown }): Promise<string> {
  const block = keyBlock(mol.standard_inchi_key);
  const inchi = typeof mol.standard_inchi === 'string' ? mol.standard_inchi : null;
  if (!block || !inchi) return nextIdentifier(store);
  const flat = flatInchi(inchi);
  const members = await store.find('molecules', { standard_inchi_key: { $gte: `${block}-`, $lt: `${block}.` } }, { fields: ['identifier', 'standard_inchi'] });
  const ids = members
    .filter((m) => m.id !== mol.id && typeof m.standard_inchi === 'string' && flatInchi(m.standard_inchi) === flat)
    .map((m) => COCONUT_STYLE.exec(typeof m.identifier === 'string' ? m.identifier : ''))
    .filter((m): m is RegExpExecArray => !!m)
    .sort((a, b) => a[1].localeCompare(b[1]));
  const base = ids[0]?.[1];
  const suffixes = ids.filter((m) => m[1] === base).map((m) => (m[2] === undefined ? 0 : Number(m[2])));
  if (flat === inchi) {
    // the parent: its family's bare number when free (and nobody else holds it), else a new one
    const free = base && ids.every((m) => m[1] !== base || m[2] !== undefined) && !(await store.findOne('molecules', { identifier: base }));
    return free ? base : nextIdentifier(store);
  }
  const number = base ?? (await nextIdentifier(store));
  const n = await store.nextCounter(`molecule_identifier:${number}`, Math.max(0, ...suffixes) + 1);
  return `${number}.${n}`;
}

/**
 * MinimalLib's `get_mol` parses a SMILES with hydrogen removal on by default, and that pass costs
 * about a quarter of the parse (~100 µs of ~410 µs on the LOTUS molecules of the HTTP benchmark)
 * even when there is no hydrogen atom to remove. A SMILES writes a hydrogen atom only as a
 * bracket atom whose element is H (`[H]`, `[2H]`, `[H+]`; `[CH3]` is a carbon with implicit
 * hydrogens), so without one the pass has nothing to remove and is skipped: the molecule is the
 * same (checked on 1,925 structures: canonical and Kekulé SMILES, CXSMILES, SMARTS, InChI,
 * CommonChem JSON, molblock, descriptors, Morgan and pattern fingerprints all identical;
 * test/chem/parse-fast-path.test.ts). Molblocks, texts with hydrogen atoms and texts with a
 * stereo mark on an atom other than carbon keep the default (see onlyCarbonCentres).
 */
export const KEEP_HS = JSON.stringify({ removeHs: false });
const HYDROGEN_ATOM = /\[\d*H(?![a-z])/;
const BRACKET_ATOM = /\[([^\]]*)\]/g;

export function skipsHydrogenRemoval(text: string): boolean {
  if (text.includes('\n') || text.includes('M  END') || text.trimStart().startsWith('{') || HYDROGEN_ATOM.test(text)) return false;
  return !text.includes('@') || onlyCarbonCentres(text);
}

/**
 * The removal pass also settles the stereo marks of some heteroatoms: a ring-junction `[N@@]`
 * next to an oxygen keeps its mark without it and loses it with it (2 of 9 fixture structures
 * with non-carbon centres differed). Only texts whose every `@` is on a carbon take the fast
 * path (3,458 fixture structures, none different).
 */
function onlyCarbonCentres(text: string): boolean {
  for (const [, inside] of text.matchAll(BRACKET_ATOM)) {
    if (inside!.includes('@') && !/^\d*C(?![a-z])/.test(inside!)) return false;
  }
  return true;
}

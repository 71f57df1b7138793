/**
 * Does a `generate_smiles` input that RDKit could not read look like a chemical name? Only then
 * does `representation=auto` try the name resolvers; otherwise the structure's own 422 stands (a
 * broken SMILES should be reported as one, not looked up in PubChem).
 *
 * A name is one line with a run of at least three letters of which one is not a SMILES atom letter
 * outside brackets (B C N O P S F I, b c n o p s, Cl, Br): "caffeine", "Quercetin",
 * "2-methylpropan-1-ol", "α-pinene" look like names; "C1CC(", "CCCCC(C" and "[Na+].[Cl-" do not.
 * InChI, InChIKeys and SELFIES are recognised before this and keep their own answers.
 */
const INCHIKEY = /^[A-Z]{14}-[A-Z]{10}-[A-Z]$/;
const SMILES_LETTERS = /^[BCNOPSFIbcnops]+$/;

export function looksLikeName(text: string): boolean {
  const t = text.trim();
  if (t === '' || t.length > 2000 || /[\r\n]/.test(t)) return false;
  if (t.startsWith('InChI=') || INCHIKEY.test(t)) return false;
  const outsideBrackets = t.replace(/\[[^\]]*\]/g, ' ').replace(/Cl|Br/g, ' ');
  const runs = outsideBrackets.match(/\p{L}{3,}/gu) ?? [];
  return runs.some((run) => !SMILES_LETTERS.test(run));
}

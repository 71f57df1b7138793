/**
 * Aglycone and sugar extraction after CDK's SugarDetectionUtility (Schaub et al.; CM 3.11's
 * /tools/extract-aglycone-and-sugars and /tools/get-aglycone-and-sugar-indices), on natprod's
 * port of the Sugar Removal Utility:
 *
 * 1. the aglycone is what the SRU's removal keeps (circular, linear or both kinds), the sugars
 *    everything else;
 * 2. two corrections on C-C bonds the removal broke: an aglycone carbon left with a single oxygen
 *    neighbour (a sugar's C6) moves to the sugars; an aglycone carbon left as a C(=O)O group (the
 *    sugar on the carboxy side of an ester) moves to the sugars with its keto oxygen;
 * 3. every broken carbon-heteroatom bond duplicates the heteroatom into the other part, so the
 *    glycosidic oxygen ends in both (an OH on each side); other broken bonds are saturated;
 * 4. the sugar part is split into its connected moieties, ordered by their first atom.
 *
 * Saturation is by implicit hydrogens, or by a `*` atom per broken bond with markAttachPoints.
 * Indices are the input's atom indices (RDKit's reading of the SMILES).
 */
import { AppError } from '../../errors.ts';
import type { Mol, RDKit } from '../core/rdkit.ts';
import { components, other, type MolGraph } from './graph.ts';
import { withDefaults, type SugarOptions } from './options.ts';
import { SugarRemover, type SugarKind } from './remove.ts';
import { keptSmiles } from './write.ts';
import { sugarMolecule } from './sugars.ts';
import { PostProcessor, type Part } from './postprocess.ts';
import { partSmiles } from './write-part.ts';

export interface Extraction {
  /** Input atom indices of the aglycone, ascending; empty when nothing is left. */
  aglycone: number[];
  /** Input atom indices of each sugar moiety, ascending; none when no sugar was removed. */
  sugars: number[][];
  /** With post-processing: the split sugar part and its fragments (part atom indices), for the SMILES. */
  post?: { part: Part; fragments: number[][] };
}

/** post_process_sugars: which kinds' splitting rules to apply (those extracted), marks, size limit. */
export interface PostProcessing { circular: boolean; linear: boolean; markAttachPoints: boolean; limitBySize: boolean }

const isHetero = (z: number) => z !== 6 && z !== 1 && z !== 0;

/**
 * @param kind which sugars to extract (the original's extract_circular_sugars / extract_linear_sugars)
 */
export function extractionIndices(
  rdkit: RDKit, mol: Mol, kind: SugarKind, options: Partial<SugarOptions> = {}, post?: PostProcessing,
): Extraction {
  const m = sugarMolecule(rdkit, mol);
  const g = m.g;
  const all = new Set(g.atoms.map((_, i) => i));
  const opts = withDefaults(options);
  const remover = new SugarRemover(m, opts);
  if (opts.onlyTerminal && components(g, all).length > 1) {
    // The SRU refuses this combination with this message (sic: "atomcontainer").
    throw new AppError(422, 'Only terminal sugar moieties should be removed but the given atomcontainer already contains multiple unconnected structures.', 'invalid_input');
  }
  const candidates = (kind !== 'linear' ? remover.circular(all).length : 0) + (kind !== 'circular' ? remover.linear(all).length : 0);
  const kept = candidates === 0 ? all : remover.remove(all, kind);
  if (kept.size === all.size) return { aglycone: [...all], sugars: [] };

  const inAglycone = new Set(kept);
  correctBrokenCarbonBonds(g, inAglycone);
  const inSugars = new Set([...all].filter((a) => !inAglycone.has(a)));
  const aglyconePart = new Set(inAglycone);
  const sugarPart = new Set(inSugars);
  // A spiro atom shared by a removed sugar ring and the aglycone belongs to both.
  if (opts.spiroSugars) {
    for (const c of remover.circular(all)) {
      if (c.spiroAtoms.length && c.atoms.every((a) => inSugars.has(a) || c.spiroAtoms.includes(a))) c.spiroAtoms.forEach((a) => sugarPart.add(a));
    }
  }
  for (const b of g.bonds) {
    if (inAglycone.has(b.a) === inAglycone.has(b.b)) continue;
    const za = g.atoms[b.a].z;
    const zb = g.atoms[b.b].z;
    // A broken carbon-heteroatom bond: the heteroatom goes to both sides.
    const hetero = za === 6 && isHetero(zb) ? b.b : zb === 6 && isHetero(za) ? b.a : -1;
    if (hetero >= 0) (inAglycone.has(hetero) ? sugarPart : aglyconePart).add(hetero);
  }
  const byIndex = (x: number, y: number) => x - y;
  if (post) {
    const part = sugarPartOf(g, inAglycone, inSugars, sugarPart, post.markAttachPoints);
    const fragments = new PostProcessor(part, g, opts, m.weights).run(post.circular, post.linear, post.markAttachPoints, post.limitBySize)
      .filter((f) => f.some((a) => part.atoms[a].z !== 0));
    const sugars = fragments.map((f) => f.filter((a) => !part.atoms[a].isNew).map((a) => part.atoms[a].orig).sort(byIndex));
    return { aglycone: [...aglyconePart].sort(byIndex), sugars, post: { part, fragments } };
  }
  // Moieties ordered by their first atom of the sugar part proper (duplicated atoms come last in CDK's container).
  const firstOwn = (c: number[]) => Math.min(...c.filter((a) => inSugars.has(a)));
  const sugars = components(g, sugarPart)
    .map((c) => c.sort(byIndex))
    .sort((x, y) => firstOwn(x) - firstOwn(y));
  return { aglycone: [...aglyconePart].sort(byIndex), sugars };
}

/**
 * The sugar part as its own structure for post-processing: own atoms by index, then the copied
 * atoms; bonds between its atoms except between two copies; hydrogens (or `*` atoms) for the
 * input bonds it lacks.
 */
function sugarPartOf(g: MolGraph, inAglycone: Set<number>, inSugars: Set<number>, sugarPart: Set<number>, mark: boolean): Part {
  const order = [...inSugars].sort((x, y) => x - y).concat([...sugarPart].filter((a) => !inSugars.has(a)).sort((x, y) => x - y));
  const at = new Map(order.map((a, i) => [a, i]));
  const part: Part = {
    atoms: order.map((a) => ({ orig: a, z: g.atoms[a].z, charge: g.atoms[a].charge, aromatic: g.atoms[a].aromatic, hs: g.atoms[a].impHs, isNew: false })),
    bonds: [],
  };
  g.bonds.forEach((b, bi) => {
    const inPart = at.has(b.a) && at.has(b.b) && !(inAglycone.has(b.a) && inAglycone.has(b.b));
    if (inPart) {
      part.bonds.push({ a: at.get(b.a)!, b: at.get(b.b)!, order: b.order, aromatic: b.aromatic, orig: bi, alive: true });
      return;
    }
    for (const end of [b.a, b.b]) {
      if (!at.has(end)) continue;
      if (!mark) { part.atoms[at.get(end)!].hs += b.order; continue; }
      part.atoms.push({ orig: -1, z: 0, charge: 0, aromatic: false, hs: 0, isNew: true });
      part.bonds.push({ a: at.get(end)!, b: part.atoms.length - 1, order: b.order, aromatic: false, orig: -1, alive: true });
    }
  });
  return part;
}

/** Step 2: the SugarDetectionUtility's corrections of C6 and carboxy separations, in bond order. */
function correctBrokenCarbonBonds(g: MolGraph, inAglycone: Set<number>): void {
  for (const b of g.bonds) {
    if (g.atoms[b.a].z !== 6 || g.atoms[b.b].z !== 6) continue;
    if (inAglycone.has(b.a) === inAglycone.has(b.b)) continue;
    const c = inAglycone.has(b.a) ? b.a : b.b;
    const nbrs = g.incident[c].filter((bi) => inAglycone.has(other(g.bonds[bi], c)));
    if (nbrs.length === 1) {
      if (g.atoms[other(g.bonds[nbrs[0]], c)].z === 8) inAglycone.delete(c);
    } else if (nbrs.length === 2) {
      const oxygens = nbrs.map((bi) => ({ bond: g.bonds[bi], o: other(g.bonds[bi], c) }));
      if (!oxygens.every((x) => g.atoms[x.o].z === 8)) continue;
      const keto = oxygens.find((x) => x.bond.order === 2);
      const ether = oxygens.find((x) => x.bond.order === 1 && !x.bond.aromatic);
      if (keto && ether) {
        inAglycone.delete(c);
        inAglycone.delete(keto.o);
      }
    }
  }
}

/** The SMILES of the aglycone (first; `''` when empty) and of each sugar moiety. */
export function extractionSmiles(rdkit: RDKit, mol: Mol, x: Extraction, markAttachPoints: boolean): string[] {
  const aglycone = keptSmiles(rdkit, mol, new Set(x.aglycone), markAttachPoints);
  if (x.post) return [aglycone, ...x.post.fragments.map((f) => partSmiles(rdkit, mol, x.post!.part, f, markAttachPoints))];
  return [aglycone, ...x.sugars.map((part) => keptSmiles(rdkit, mol, new Set(part), markAttachPoints))];
}

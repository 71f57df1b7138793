/**
 * One molecule as the descriptor pieces see it. Each piece used to call `get_json()` and
 * re-parse it (five times per molecule for the descriptors), and to run every fixed SMARTS
 * query through RDKit. The view reads the molecule JSON once, on first use, and answers
 * substructure questions through the compiled per-thread queries, skipping the RDKit call when
 * the SMARTS screen (smarts-screen.ts) proves there is no match.
 *
 * A view lives as long as the call that made it and never outlives its molecule; nothing in it
 * is kept between molecules.
 */
import type { Mol, RDKit } from './rdkit.ts';
import { readMolJson, type MolJson } from './commonchem.ts';
import { mayMatch, screenMol, type ScreenMol } from './smarts-screen.ts';
import { compiledSmarts, hasMatch, matches, type CompiledSmarts } from './smarts.ts';
import { inMatchDomain, matchGraph, type MatchGraph } from './match-graph.ts';
import { countUniqueMatches, hasMatch as jsHasMatch, matchesAt, tryCompileSmarts } from './smarts-match.ts';

export class MolView {
  private parsed?: MolJson;
  private inventory?: ScreenMol | null;
  private graphCache?: MatchGraph | null;

  /**
   * @param plainSmiles the molecule was read from a SMILES without atom maps, CX extensions or
   *   non-tetrahedral stereo, so `get_json()` carries everything the molecule holds (see
   *   isPlainSmiles); pieces may then rebuild derived molecules from the JSON.
   */
  constructor(
    readonly rdkit: RDKit,
    readonly mol: Mol,
    readonly plainSmiles = false,
  ) {}

  /** MinimalLib's molecule JSON, parsed once. */
  get json(): MolJson {
    return (this.parsed ??= readMolJson(this.mol));
  }

  private get screen(): ScreenMol | undefined {
    if (this.inventory === undefined) this.inventory = screenMol(this.json) ?? null;
    return this.inventory ?? undefined;
  }

  /** The compiled query of a fixed SMARTS; throws when it does not parse (as requireQuery). */
  private compiled(smarts: string): CompiledSmarts & { query: Mol } {
    const c = compiledSmarts(this.rdkit, smarts);
    if (!c.query) throw new Error(`SMARTS does not parse: ${smarts}`);
    return c as CompiledSmarts & { query: Mol };
  }

  /** False only when the SMARTS certainly has no match in the molecule. */
  mayMatch(smarts: string): boolean {
    return mayMatch(compiledSmarts(this.rdkit, smarts).screen, this.screen);
  }

  /**
   * The graph of the JavaScript SMARTS matcher (smarts-match.ts), or undefined for a molecule
   * outside the domain that matcher was checked on (then RDKit answers).
   */
  get matchGraph(): MatchGraph | undefined {
    if (this.graphCache === undefined) this.graphCache = inMatchDomain(this.json) ? matchGraph(this.json) : null;
    return this.graphCache ?? undefined;
  }

  /** `hasMatch` of descriptors-smarts.ts: the JavaScript matcher when it reads the SMARTS, else RDKit after the screen. */
  hasMatch(smarts: string): boolean {
    const c = this.compiled(smarts);
    if (!mayMatch(c.screen, this.screen)) return false;
    const q = tryCompileSmarts(smarts), g = q && this.matchGraph;
    return q && g ? jsHasMatch(q, g) : hasMatch(this.mol, c.query);
  }

  /** The atoms a one-atom SMARTS matches (the first atom of each match for longer ones). */
  matchingAtoms(smarts: string): number[] {
    if (!this.mayMatch(smarts)) return [];
    const q = tryCompileSmarts(smarts), g = q && this.matchGraph;
    if (!q || !g || q.atoms.length !== 1) return this.matches(smarts).map((m) => m[0]);
    const out: number[] = [];
    for (let i = 0; i < g.n; i++) if (matchesAt(q, g, i)) out.push(i);
    return out;
  }

  /** The number of unique matches (at most 1000 when RDKit counts). */
  count(smarts: string): number {
    if (!this.mayMatch(smarts)) return 0;
    const q = tryCompileSmarts(smarts), g = q && this.matchGraph;
    return q && g ? countUniqueMatches(q, g) : this.matches(smarts).length;
  }

  /** `matches` of descriptors-smarts.ts (unique, at most 1000), skipping RDKit likewise. */
  matches(smarts: string): number[][] {
    const c = this.compiled(smarts);
    return mayMatch(c.screen, this.screen) ? matches(this.mol, c.query) : [];
  }
}

/**
 * A SMILES whose molecule `get_json()` describes completely: no molblock, no CXSMILES block
 * (labels, groups, coordinates), no atom-map numbers (which the JSON leaves out) and no
 * explicit stereo classes (@TH, @AL, @SP, @TB, @OH; plain @/@@ are tetrahedral and fine).
 */
export function isPlainSmiles(text: string): boolean {
  return !/[\s|]/.test(text) && !/\[[^\]]*:/.test(text) && !/@(?:TH|AL|SP|TB|OH)/.test(text);
}

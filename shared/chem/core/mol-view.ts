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

export class MolView {
  private parsed?: MolJson;
  private inventory?: ScreenMol | null;

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

  /** `hasMatch` of descriptors-smarts.ts, skipping RDKit when the screen rules a match out. */
  hasMatch(smarts: string): boolean {
    const c = this.compiled(smarts);
    return mayMatch(c.screen, this.screen) && hasMatch(this.mol, c.query);
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

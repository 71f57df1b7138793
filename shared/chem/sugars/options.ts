/**
 * Settings of the Sugar Removal Utility (Schaub et al., J Cheminform 2020, 12:67) and their
 * defaults. The defaults are the SRU's own (v1.3.2, as the MCP-era service ran it); only the
 * O-glycosidic-bond requirement differs per operation, which the operations decide.
 */
export type PreservationMode = 'all' | 'heavy-atom-count' | 'molecular-weight';

export interface SugarOptions {
  /** Circular sugars must carry an exocyclic O-glycosidic (ether/ester) oxygen. */
  glycosidicBond: boolean;
  /** Circular sugars must carry enough exocyclic oxygen atoms (see the ratio threshold). */
  oxygenAtoms: boolean;
  /** Minimum exocyclic oxygen atoms / ring atoms, 0..1. */
  oxygenAtomsThreshold: number;
  /** Linear sugar patterns may match atoms that are part of rings (macrocycles). */
  linearSugarsInRings: boolean;
  /** Carbon-count window of a linear sugar candidate (inclusive). */
  linearMinSize: number;
  linearMaxSize: number;
  /** Add the acidic linear sugar patterns. */
  linearAcidicSugars: boolean;
  /** Rings sharing one atom with another ring may be circular sugars (the shared atom stays). */
  spiroSugars: boolean;
  /** Ring carbons may carry an exocyclic C=O (keto group) and still form a circular sugar. */
  ketoSugars: boolean;
  /** Remove only sugars whose removal leaves one connected structure worth keeping. */
  onlyTerminal: boolean;
  preservationMode: PreservationMode;
  /** Heavy atoms, or Da in molecular-weight mode; fragments below it are discarded. */
  preservationThreshold: number;
  /** Replace each broken bond to a removed sugar by a bond to a `*` attachment atom. */
  markAttachPoints: boolean;
}

export const DEFAULT_SUGAR_OPTIONS: Readonly<SugarOptions> = Object.freeze({
  glycosidicBond: false,
  oxygenAtoms: true,
  oxygenAtomsThreshold: 0.5,
  linearSugarsInRings: false,
  linearMinSize: 4,
  linearMaxSize: 7,
  linearAcidicSugars: false,
  spiroSugars: false,
  ketoSugars: false,
  onlyTerminal: true,
  preservationMode: 'heavy-atom-count',
  preservationThreshold: 5,
  markAttachPoints: false,
});

export function withDefaults(options: Partial<SugarOptions> = {}): SugarOptions {
  const o = { ...DEFAULT_SUGAR_OPTIONS };
  for (const [k, v] of Object.entries(options)) if (v !== undefined) (o as Record<string, unknown>)[k] = v;
  return o;
}

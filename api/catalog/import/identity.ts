/**
 * Which molecule a row with an identifier is (the README's "Identifiers"): the file's identifier
 * is kept, so that `CNP0228556.1` names here the compound it names in COCONUT.
 *
 * - The identifier and the derived InChIKey find the same molecule, or only one of them finds one
 *   and it has no other identifier: that molecule, updated in place.
 * - The identifier is held here by another structure: with COCONUT's authority, a molecule that
 *   came from COCONUT gets the new structure (COCONUT corrected it), and one whose identifier this
 *   catalog minted gets a fresh minted identifier, the row's molecule taking the identifier. Any
 *   other case (two structures both claiming it) is a clash: the row is rejected, nothing changes.
 * - The structure is here under another identifier: with COCONUT's authority and an identifier
 *   this catalog minted, it takes COCONUT's; otherwise a clash.
 * - Within one file, an identifier given to two structures, or a structure given two identifiers,
 *   rejects the later row.
 */
import { auditableType } from '../audit/audit.ts';
import type { CatalogStore, Doc } from '../store/types.ts';

export type Identity =
  | { kind: 'reject'; reason: string }
  /** `doc`: the molecule the row updates (absent: a new one); `remint`: a molecule whose minted identifier must move first. */
  | { kind: 'ok'; doc?: Doc; remint?: Doc; note?: string; keepStructure?: boolean };

const desc = (d: Doc) => `molecule ${d.id} (${d.identifier ?? 'no identifier'}, ${d.standard_inchi_key})`;

export class Identities {
  /** identifier → [InChIKey, row] and InChIKey → [identifier, row], as given in this file. */
  private readonly byId = new Map<string, [string, number]>();
  private readonly byKey = new Map<string, [string, number]>();

  constructor(
    private readonly store: CatalogStore,
    /** Whether a stored molecule came from COCONUT (linked to its collection). */
    private readonly fromCoconut: (d: Doc) => Promise<boolean>,
  ) {}

  /** The in-file checks; records the pair when they pass. */
  private inFile(row: number, identifier: string, key: string): string | undefined {
    const a = this.byId.get(identifier);
    if (a && a[0] !== key) return `identifier ${identifier} was given at row ${a[1]} to another structure (${a[0]}); this row's structure is ${key}`;
    const b = this.byKey.get(key);
    if (b && b[0] !== identifier) return `the structure ${key} was given identifier ${b[0]} at row ${b[1]}; this row names it ${identifier}`;
    this.byId.set(identifier, [key, row]);
    this.byKey.set(key, [identifier, row]);
    return undefined;
  }

  /**
   * `molblock`: the row's structure is only a molblock (a lite SDF). A molblock's wedges may read
   * as other stereo than the SMILES it was drawn from (bridged stereocentres), so it never
   * changes the structure of a molecule its identifier finds: the row updates its other fields.
   */
  async resolve(row: number, identifier: string, key: string, authority: 'coconut' | 'file', molblock = false): Promise<Identity> {
    if (molblock) {
      const held = await this.store.findOne('molecules', { identifier });
      if (held && held.standard_inchi_key !== key) {
        return { kind: 'ok', doc: held, keepStructure: true, note: `the molblock of ${identifier} reads as ${key}, the stored structure is ${held.standard_inchi_key}: the structure is left as it is` };
      }
    }
    const dup = this.inFile(row, identifier, key);
    if (dup) return { kind: 'reject', reason: dup };
    const byKey = await this.store.findOne('molecules', { standard_inchi_key: key });
    const byId = byKey?.identifier === identifier ? byKey : await this.store.findOne('molecules', { identifier });
    const coconut = authority === 'coconut';
    if (byId && byKey && byId.id === byKey.id) return { kind: 'ok', doc: byKey };
    if (byId) {
      if (byKey) return { kind: 'reject', reason: `identifier ${identifier} names ${desc(byId)} here, and the row's structure is ${desc(byKey)}: nothing changed` };
      if (coconut && (await this.fromCoconut(byId))) {
        return { kind: 'ok', doc: byId, note: `COCONUT changed the structure of ${identifier}: ${byId.standard_inchi_key} → ${key}` };
      }
      if (coconut) return { kind: 'ok', remint: byId, note: `${identifier} was minted here for another structure (${byId.standard_inchi_key}, molecule ${byId.id}); that molecule gets a new identifier and COCONUT's ${identifier} names ${key}` };
      return { kind: 'reject', reason: `identifier ${identifier} names ${desc(byId)} here, not the row's structure ${key}: nothing changed` };
    }
    if (byKey) {
      if (!byKey.identifier) return { kind: 'ok', doc: byKey };
      if (coconut && !(await this.fromCoconut(byKey))) {
        return { kind: 'ok', doc: byKey, note: `molecule ${byKey.id} (${key}) takes COCONUT's identifier ${identifier} instead of ${byKey.identifier}, minted here` };
      }
      return { kind: 'reject', reason: `the row's structure ${key} is ${desc(byKey)} here, not ${identifier}: nothing changed` };
    }
    return { kind: 'ok' };
  }
}

/** The number of a `CNP` identifier (`CNP0228556.1` → 228556), or undefined. */
export function identifierNumber(identifier: string): number | undefined {
  const m = /^CNP(\d{7})(?:\.\d+)?$/.exec(identifier);
  return m ? Number(m[1]) : undefined;
}

/**
 * Whether a molecule's REVOKED status was set by an import (revoke.ts: a COCONUT release left it
 * out), its latest status change tagged `import` or `import:<job id>`, rather than by a curator
 * (a mutate or an action): only then does a later release that lists it make it active again.
 */
export async function revokedByRelease(store: CatalogStore, id: number): Promise<boolean> {
  const entries = await store.find('audits', { auditable_type: auditableType('molecules'), auditable_id: id }, { sort: [{ field: 'id', dir: -1, nulls: 'last' }] });
  const last = entries.find((e) => Object.hasOwn((e.new_values ?? {}) as object, 'status'));
  const tags = String(last?.tags ?? '');
  return (last?.new_values as { status?: unknown } | undefined)?.status === 'REVOKED' && (tags === 'import' || tags.startsWith('import:'));
}

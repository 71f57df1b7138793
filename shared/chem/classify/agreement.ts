/**
 * Agreement of the classifier with independent labels (NPClassifier pathway/superclass and
 * ClassyFire superclass/class, as exported by LOTUS). Pure: the caller reads the label file and
 * supplies the classifications. Only structures that carry the label in question are counted.
 */
import type { ChemclassEntity } from './classify.ts';

export interface LabelRow {
  inchikey: string;
  smiles: string;
  npc_pathway: string;
  npc_superclass: string;
  npc_class: string;
  cf_kingdom: string;
  cf_superclass: string;
  cf_class: string;
  cf_direct_parent: string;
}

export interface Rate {
  agree: number;
  total: number;
  rate: number;
}

export interface Agreement {
  npc_pathway: Rate;
  /** The label pathway is one of the pathways of the chosen superclass. */
  npc_pathway_any: Rate;
  npc_superclass: Rate;
  npc_class: Rate;
  cf_superclass: Rate;
  cf_class: Rate;
  failed: number;
}

/** Parse the fixture (tab-separated, header line, no quoting). */
export function parseLabels(tsv: string): LabelRow[] {
  const [head, ...lines] = tsv.split('\n').filter((l) => l.trim() !== '');
  const cols = head.split('\t');
  return lines.map((line) => {
    const cells = line.split('\t');
    return Object.fromEntries(cols.map((c, i) => [c, cells[i] ?? ''])) as unknown as LabelRow;
  });
}

class Counter {
  agree = 0;
  total = 0;
  add(label: string, ok: boolean): void {
    if (!label) return;
    this.total++;
    if (ok) this.agree++;
  }
  get value(): Rate {
    return { agree: this.agree, total: this.total, rate: this.total ? this.agree / this.total : 0 };
  }
}

export function measureAgreement(rows: LabelRow[], results: (ChemclassEntity | null)[]): Agreement {
  const c = {
    npc_pathway: new Counter(), npc_pathway_any: new Counter(), npc_superclass: new Counter(),
    npc_class: new Counter(), cf_superclass: new Counter(), cf_class: new Counter(),
  };
  let failed = 0;
  rows.forEach((row, i) => {
    const e = results[i];
    if (!e) failed++;
    const np = e?.npclassifier;
    c.npc_pathway.add(row.npc_pathway, np?.pathway === row.npc_pathway);
    c.npc_pathway_any.add(row.npc_pathway, !!np?.pathways.includes(row.npc_pathway));
    c.npc_superclass.add(row.npc_superclass, np?.superclass === row.npc_superclass);
    c.npc_class.add(row.npc_class, np?.class === row.npc_class);
    c.cf_superclass.add(row.cf_superclass, e?.superclass?.name === row.cf_superclass);
    c.cf_class.add(row.cf_class, e?.class?.name === row.cf_class);
  });
  return {
    npc_pathway: c.npc_pathway.value,
    npc_pathway_any: c.npc_pathway_any.value,
    npc_superclass: c.npc_superclass.value,
    npc_class: c.npc_class.value,
    cf_superclass: c.cf_superclass.value,
    cf_class: c.cf_class.value,
    failed,
  };
}

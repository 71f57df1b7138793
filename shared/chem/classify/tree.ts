/**
 * The two decisions of the classifier, both driven by the rule set:
 *
 * - ChemOnt-style hierarchy: start at the roots (kingdoms) and, level by level, descend into the
 *   first child (in rule-set order) whose rule holds; the last node reached is the direct parent.
 *   The other children whose rules also hold at each level are the alternative parents.
 * - NPClassifier-style pathway: the superclass rules form an ordered decision list (first match
 *   wins, so specific scaffolds precede generic ones); within the chosen superclass the first
 *   matching class is taken. When no superclass matches, the pathway-level fallback rules apply.
 */
import type { RuleEvaluator } from './rules.ts';
import type { RuleNode, RuleSet } from './types.ts';

export interface TaxNode {
  name: string;
  description: string;
  chemont_id: string;
  url: string;
}

export interface ChemontResult {
  kingdom: TaxNode | null;
  superclass: TaxNode | null;
  class: TaxNode | null;
  subclass: TaxNode | null;
  intermediate_nodes: TaxNode[];
  direct_parent: TaxNode | null;
  alternative_parents: TaxNode[];
  ancestors: string[];
}

export interface NpResult {
  pathway: string | null;
  superclass: string | null;
  class: string | null;
  /** Every pathway the chosen superclass belongs to, the primary one first. */
  pathways: string[];
}

function taxNode(n: RuleNode): TaxNode {
  return {
    name: n.name,
    description: n.description,
    chemont_id: n.id,
    url: `http://classyfire.wishartlab.com/tax_nodes/C${n.id.slice(n.id.indexOf(':') + 1)}`,
  };
}

export class ChemontTree {
  private readonly children = new Map<string | null, RuleNode[]>();
  private readonly byId = new Map<string, RuleNode>();

  constructor(nodes: RuleNode[]) {
    for (const n of nodes) {
      this.byId.set(n.id, n);
      const list = this.children.get(n.parent) ?? [];
      list.push(n);
      this.children.set(n.parent, list);
    }
  }

  private lineageOf(n: RuleNode): RuleNode[] {
    const out: RuleNode[] = [];
    for (let cur: RuleNode | undefined = n; cur; cur = cur.parent ? this.byId.get(cur.parent) : undefined) out.unshift(cur);
    return out;
  }

  classify(ev: RuleEvaluator): ChemontResult {
    const lineage: RuleNode[] = [];
    const alternatives: RuleNode[] = [];
    let level = this.children.get(null) ?? [];
    while (level.length) {
      const holding = level.filter((n) => !n.when || ev.test(n.when));
      if (!holding.length) break;
      lineage.push(holding[0]);
      alternatives.push(...holding.slice(1));
      level = this.children.get(holding[0].id) ?? [];
    }
    const ancestors = new Set<string>();
    for (const n of [...lineage, ...alternatives]) for (const a of this.lineageOf(n)) ancestors.add(a.name);
    const at = (i: number) => (lineage[i] ? taxNode(lineage[i]) : null);
    const last = lineage[lineage.length - 1];
    if (last) ancestors.delete(last.name);
    return {
      kingdom: at(0),
      superclass: at(1),
      class: at(2),
      subclass: at(3),
      intermediate_nodes: lineage.slice(4, -1).map(taxNode),
      direct_parent: last ? taxNode(last) : null,
      alternative_parents: alternatives.map(taxNode),
      ancestors: [...ancestors].sort((a, b) => a.localeCompare(b)),
    };
  }
}

export class NpDecision {
  private readonly pathways: Map<string, RuleNode>;

  constructor(private readonly rules: RuleSet['npclassifier']) {
    this.pathways = new Map(rules.pathways.map((p) => [p.id, p]));
  }

  classify(ev: RuleEvaluator): NpResult {
    const superclass = this.rules.superclasses.find((s) => ev.test(s.when!));
    if (!superclass) {
      const pathway = this.rules.pathways.find((p) => p.when && ev.test(p.when));
      return { pathway: pathway?.name ?? null, superclass: null, class: null, pathways: pathway ? [pathway.name] : [] };
    }
    const cls = this.rules.classes.find((c) => c.parent === superclass.id && ev.test(c.when!));
    const pathways = [superclass.parent!, ...(superclass.also_pathways ?? [])].map((id) => this.pathways.get(id)!.name);
    return { pathway: pathways[0], superclass: superclass.name, class: cls?.name ?? null, pathways };
  }
}

/**
 * The shape of the compound-classification rule set (`data/chemclass-rules.json`) and a check
 * that every reference in it resolves. The rule set is data so that each class's rule can be
 * read, cited and changed without touching code; docs/chemclass.md explains the vocabulary.
 */

/** Where a condition is evaluated: the whole structure or what is left once sugars are removed. */
export type Scope = 'molecule' | 'aglycone';

/** Numeric properties a condition can test; classify-features.ts computes them. */
export const PROPS = [
  'C', 'N', 'O', 'S', 'P', 'halogen', 'heavy', 'charged_atoms',
  'rings', 'aromatic_rings', 'benzene_rings', 'hetero_rings', 'largest_ring', 'ring_systems',
  'skeleton_C', 'skeleton_aromatic', 'skeleton_branches', 'chain_C', 'sugar_rings', 'sugar_only', 'aglycone_heavy',
] as const;
export type PropName = (typeof PROPS)[number];

export type Condition =
  | { all: Condition[] }
  | { any: Condition[] }
  | { not: Condition }
  /** Count of unique matches of a named pattern: at least `min`, at most `max`; `min` defaults to 1 unless only `max` is given. */
  | { has: string; min?: number; max?: number; in?: Scope }
  | { prop: PropName; min?: number; max?: number; in?: Scope }
  /** A named condition of the `conditions` table. */
  | { ref: string };

export interface PatternDef {
  smarts: string;
  description: string;
  /** ClassyFire-style substituent name reported when the pattern matches the molecule. */
  substituent?: string;
}

export interface NamedCondition {
  description: string;
  when: Condition;
}

/** A node of either taxonomy. `when` is absent for nodes reached only through their children. */
export interface RuleNode {
  id: string;
  name: string;
  description: string;
  /** Parent id; null for a root (ChemOnt kingdom, NPClassifier pathway). */
  parent: string | null;
  source: string;
  when?: Condition;
  /** NPClassifier superclasses that biosynthetically belong to more than one pathway. */
  also_pathways?: string[];
}

export interface RuleSet {
  version: string;
  description: string;
  sources: Record<string, string>;
  patterns: Record<string, PatternDef>;
  conditions: Record<string, NamedCondition>;
  chemont: RuleNode[];
  npclassifier: {
    pathways: RuleNode[];
    superclasses: RuleNode[];
    classes: RuleNode[];
  };
}

function walk(c: Condition, visit: (c: Condition) => void): void {
  visit(c);
  if ('all' in c) c.all.forEach((x) => walk(x, visit));
  else if ('any' in c) c.any.forEach((x) => walk(x, visit));
  else if ('not' in c) walk(c.not, visit);
}

/** Problems in the rule set (unknown references, orphans, duplicate ids); empty when sound. */
export function checkRuleSet(rules: RuleSet): string[] {
  const problems: string[] = [];
  const props = new Set<string>(PROPS);
  const conditionsIn = (where: string, c: Condition | undefined) => {
    if (!c) return;
    walk(c, (x) => {
      if ('has' in x && !rules.patterns[x.has]) problems.push(`${where}: unknown pattern ${x.has}`);
      if ('prop' in x && !props.has(x.prop)) problems.push(`${where}: unknown property ${x.prop}`);
      if ('ref' in x && !rules.conditions[x.ref]) problems.push(`${where}: unknown condition ${x.ref}`);
    });
  };
  for (const [name, c] of Object.entries(rules.conditions)) conditionsIn(`condition ${name}`, c.when);
  for (const [name, p] of Object.entries(rules.patterns)) {
    if (!p.smarts || !p.description) problems.push(`pattern ${name}: smarts and description are required`);
  }
  const tree = (label: string, nodes: RuleNode[], parents: Map<string, RuleNode>, rootsAllowed: boolean) => {
    const ids = new Set<string>();
    for (const n of nodes) {
      if (ids.has(n.id)) problems.push(`${label} ${n.id}: duplicate id`);
      ids.add(n.id);
      if (!n.name || !n.description || !n.source) problems.push(`${label} ${n.id}: name, description and source are required`);
      if (n.parent === null ? !rootsAllowed : !parents.has(n.parent)) problems.push(`${label} ${n.id}: unknown parent ${n.parent}`);
      conditionsIn(`${label} ${n.id}`, n.when);
    }
  };
  const chemont = new Map(rules.chemont.map((n) => [n.id, n]));
  tree('chemont', rules.chemont, chemont, true);
  const np = rules.npclassifier;
  tree('pathway', np.pathways, new Map(), true);
  const pathways = new Map(np.pathways.map((n) => [n.id, n]));
  tree('superclass', np.superclasses, pathways, false);
  for (const s of np.superclasses) {
    for (const p of s.also_pathways ?? []) if (!pathways.has(p)) problems.push(`superclass ${s.id}: unknown pathway ${p}`);
    if (!s.when) problems.push(`superclass ${s.id}: a rule (when) is required`);
  }
  tree('class', np.classes, new Map(np.superclasses.map((n) => [n.id, n])), false);
  for (const c of np.classes) if (!c.when) problems.push(`class ${c.id}: a rule (when) is required`);
  return problems;
}

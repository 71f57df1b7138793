/**
 * Evaluation of the rule-set conditions (classify-types.ts) against the features of a molecule
 * and of its aglycone.
 */
import type { ScopeFeatures } from './features.ts';
import type { Condition, NamedCondition, Scope } from './types.ts';

export interface Subject {
  molecule: ScopeFeatures;
  aglycone: ScopeFeatures;
}

export class RuleEvaluator {
  private readonly named = new Map<string, boolean>();

  constructor(readonly subject: Subject, private readonly conditions: Record<string, NamedCondition>) {}

  private scope(s: Scope | undefined): ScopeFeatures {
    return s === 'molecule' ? this.subject.molecule : this.subject.aglycone;
  }

  test(c: Condition): boolean {
    if ('all' in c) return c.all.every((x) => this.test(x));
    if ('any' in c) return c.any.some((x) => this.test(x));
    if ('not' in c) return !this.test(c.not);
    if ('ref' in c) {
      let v = this.named.get(c.ref);
      if (v === undefined) {
        v = this.test(this.conditions[c.ref].when);
        this.named.set(c.ref, v);
      }
      return v;
    }
    const value = 'has' in c ? this.scope(c.in).count(c.has) : this.scope(c.in).prop(c.prop);
    // A bare {has} means "present"; with only a max it is an upper bound (absence allowed).
    const min = c.min ?? ('has' in c && c.max === undefined ? 1 : -Infinity);
    return value >= min && value <= (c.max ?? Infinity);
  }
}

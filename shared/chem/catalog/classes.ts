/**
 * The catalog's class fields of a molecule, from natprod's own classifier (shared/chem/classify/,
 * docs/chemclass.md), stored as COCONUT stores them: the NPClassifier levels
 * (`np_classifier_pathway`, `np_classifier_superclass`, `np_classifier_class`) as lists of every
 * label (COCONUT's jsonb arrays, its 2026-06 migration and issue #802; null when there is none),
 * the ClassyFire levels (`chemical_super_class`, `chemical_class`, `chemical_sub_class`,
 * `direct_parent_classification`) as one name each, and the glycoside flag.
 *
 * The classifier gives every pathway of the superclass it chose (a terpenoid alkaloid:
 * Terpenoids and Alkaloids) and one superclass and one class, so the two finer lists hold at most
 * one label; an imported record may hold more, and every search matches any element.
 */
import { classifyMol, RULES } from '../classify/classify.ts';
import type { Mol, RDKit } from '../core/rdkit.ts';
import type { MolView } from '../core/mol-view.ts';
import type { DerivedClasses } from './ports.ts';

const none: DerivedClasses = {
  chemical_class: null,
  chemical_sub_class: null,
  chemical_super_class: null,
  direct_parent_classification: null,
  np_classifier_pathway: null,
  np_classifier_superclass: null,
  np_classifier_class: null,
  np_classifier_is_glycoside: null,
};

const list = (labels: (string | null | undefined)[]): string[] | null => {
  const out = [...new Set(labels.filter((l): l is string => !!l))];
  return out.length ? out : null;
};

/**
 * The class fields of a parsed molecule. A structure the classifier cannot handle gets nulls:
 * its other derived fields are still worth storing. `circularSugars`: the derivation's own
 * detection (`contains_ring_sugars`, the Sugar Removal Utility's defaults, as the classifier's),
 * which spares the classifier its sugar removal when there is no sugar ring. `view`: the
 * derivation's view of the molecule, shared with the classifier (ClassifyHints `view`).
 */
export function deriveClasses(rdkit: RDKit, mol: Mol, circularSugars?: boolean, view?: MolView): DerivedClasses {
  let e: ReturnType<typeof classifyMol>;
  try {
    e = classifyMol(rdkit, mol, RULES, { circularSugars, lean: true, view });
  } catch {
    return { ...none };
  }
  const np = e.npclassifier;
  return {
    chemical_class: e.class?.name ?? null,
    chemical_sub_class: e.subclass?.name ?? null,
    chemical_super_class: e.superclass?.name ?? null,
    direct_parent_classification: e.direct_parent?.name ?? null,
    np_classifier_pathway: list(np.pathways.length ? np.pathways : [np.pathway]),
    np_classifier_superclass: list([np.superclass]),
    np_classifier_class: list([np.class]),
    np_classifier_is_glycoside: np.is_glycoside,
  };
}

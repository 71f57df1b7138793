/**
 * The offline classifier on textbook natural products (classes as any pharmacognosy text gives
 * them, e.g. Dewick, Medicinal Natural Products, 3rd ed.; the ClassyFire class of caffeine is the
 * one the spec quotes, docs/spec/chem-service.md §2.1 (11)), the consistency of the rule set, and bad input.
 */
import t from 'tap';
import { classifyStructure, RULES } from '../../shared/chem/classify/classify.ts';
import { checkRuleSet } from '../../shared/chem/classify/types.ts';
import { loadRDKit, withQuery } from '../../shared/chem/core/rdkit.ts';
import { AppError } from '../../shared/errors.ts';

const rdkit = await loadRDKit();

interface Expect {
  smiles: string;
  pathway: string;
  superclass?: string;
  class?: string;
  glycoside?: boolean;
  cfSuperclass?: string;
  cfClass?: string;
}

const TEXTBOOK: Record<string, Expect> = {
  quercetin: { smiles: 'O=c1c(O)c(-c2ccc(O)c(O)c2)oc2cc(O)cc(O)c12', pathway: 'Shikimates and Phenylpropanoids', superclass: 'Flavonoids', class: 'Flavonols', glycoside: false, cfSuperclass: 'Phenylpropanoids and polyketides', cfClass: 'Flavonoids' },
  rutin: { smiles: 'CC1OC(OCC2OC(Oc3c(-c4ccc(O)c(O)c4)oc4cc(O)cc(O)c4c3=O)C(O)C(O)C2O)C(O)C(O)C1O', pathway: 'Shikimates and Phenylpropanoids', superclass: 'Flavonoids', class: 'Flavonols', glycoside: true, cfClass: 'Flavonoids' },
  apigenin: { smiles: 'O=c1cc(-c2ccc(O)cc2)oc2cc(O)cc(O)c12', pathway: 'Shikimates and Phenylpropanoids', superclass: 'Flavonoids', class: 'Flavones' },
  naringenin: { smiles: 'O=C1C[C@@H](c2ccc(O)cc2)Oc2cc(O)cc(O)c21', pathway: 'Shikimates and Phenylpropanoids', superclass: 'Flavonoids', class: 'Flavanones' },
  catechin: { smiles: 'O[C@@H]1Cc2c(O)cc(O)cc2O[C@H]1c1ccc(O)c(O)c1', pathway: 'Shikimates and Phenylpropanoids', superclass: 'Flavonoids', class: 'Flavan-3-ols' },
  genistein: { smiles: 'O=c1c(-c2ccc(O)cc2)coc2cc(O)cc(O)c12', pathway: 'Shikimates and Phenylpropanoids', superclass: 'Isoflavonoids', class: 'Isoflavones' },
  caffeine: { smiles: 'Cn1c(=O)c2c(ncn2C)n(C)c1=O', pathway: 'Alkaloids', class: 'Purine alkaloids', cfSuperclass: 'Organoheterocyclic compounds', cfClass: 'Imidazopyrimidines' },
  morphine: { smiles: 'CN1CC[C@]23c4c5ccc(O)c4O[C@H]2[C@@H](O)C=C[C@H]3[C@H]1C5', pathway: 'Alkaloids', superclass: 'Tyrosine alkaloids', cfSuperclass: 'Alkaloids and derivatives' },
  nicotine: { smiles: 'CN1CCC[C@H]1c1cccnc1', pathway: 'Alkaloids', superclass: 'Nicotinic acid alkaloids' },
  strychnine: { smiles: 'O=C1C[C@H]2OCC=C3CN4CC[C@]56[C@@H]4C[C@H]3[C@@H]2[C@@H]6N1c1ccccc15', pathway: 'Alkaloids', superclass: 'Tryptophan alkaloids' },
  hyoscyamine: { smiles: 'CN1[C@@H]2CC[C@H]1C[C@@H](C2)OC(=O)[C@H](CO)c1ccccc1', pathway: 'Alkaloids', superclass: 'Ornithine alkaloids', class: 'Tropane alkaloids' },
  sparteine: { smiles: 'C1CCN2C[C@@H]3C[C@H](CN4CCCC[C@@H]34)[C@@H]2C1', pathway: 'Alkaloids', superclass: 'Lysine alkaloids', class: 'Quinolizidine alkaloids' },
  cholesterol: { smiles: 'CC(C)CCC[C@@H](C)[C@H]1CC[C@H]2[C@@H]3CC=C4C[C@@H](O)CC[C@]4(C)[C@H]3CC[C@]12C', pathway: 'Terpenoids', superclass: 'Steroids', cfSuperclass: 'Lipids and lipid-like molecules', cfClass: 'Steroids and steroid derivatives' },
  digitoxigenin: { smiles: 'C[C@]12CC[C@H](O)C[C@H]1CC[C@@H]1[C@@H]2CC[C@]2(C)[C@H](C3=CC(=O)OC3)CC[C@]12O', pathway: 'Terpenoids', superclass: 'Steroids', class: 'Cardenolides' },
  limonene: { smiles: 'CC1=CCC(CC1)C(=C)C', pathway: 'Terpenoids', superclass: 'Monoterpenoids', class: 'Menthane monoterpenoids', cfClass: 'Prenol lipids' },
  geraniol: { smiles: 'CC(C)=CCC/C(C)=C/CO', pathway: 'Terpenoids', superclass: 'Monoterpenoids', class: 'Acyclic monoterpenoids' },
  camphor: { smiles: 'CC1(C)[C@@H]2CC[C@@]1(C)C(=O)C2', pathway: 'Terpenoids', superclass: 'Monoterpenoids', class: 'Camphane monoterpenoids' },
  artemisinin: { smiles: 'C[C@@H]1CC[C@H]2[C@@H](C)C(=O)O[C@@H]3O[C@@]4(C)CC[C@@H]1[C@]32OO4', pathway: 'Terpenoids', superclass: 'Sesquiterpenoids' },
  abietic_acid: { smiles: 'CC(C)C1=CC2=CC[C@H]3[C@](C)(CCC[C@@]3(C)C(=O)O)[C@H]2CC1', pathway: 'Terpenoids', superclass: 'Diterpenoids', class: 'Abietane diterpenoids' },
  oleanolic_acid: { smiles: 'CC1(C)CC[C@]2(C(=O)O)CC[C@]3(C)C(=CC[C@@H]4[C@@]5(C)CC[C@H](O)C(C)(C)[C@@H]5CC[C@]43C)[C@@H]2C1', pathway: 'Terpenoids', superclass: 'Triterpenoids', class: 'Oleanane triterpenoids' },
  beta_carotene: { smiles: 'CC1=C(C(C)(C)CCC1)/C=C/C(C)=C/C=C/C(C)=C/C=C/C=C(C)/C=C/C=C(C)/C=C/C1=C(C)CCCC1(C)C', pathway: 'Terpenoids', superclass: 'Carotenoids (C40)' },
  palmitic_acid: { smiles: 'CCCCCCCCCCCCCCCC(=O)O', pathway: 'Fatty acids', superclass: 'Fatty Acids and Conjugates', cfSuperclass: 'Lipids and lipid-like molecules', cfClass: 'Fatty Acyls' },
  linoleic_acid: { smiles: 'CCCCC/C=C\\C/C=C\\CCCCCCCC(=O)O', pathway: 'Fatty acids', superclass: 'Fatty Acids and Conjugates', class: 'Unsaturated fatty acids' },
  glucose: { smiles: 'OC[C@H]1OC(O)[C@H](O)[C@@H](O)[C@@H]1O', pathway: 'Carbohydrates', superclass: 'Saccharides', class: 'Monosaccharides', glycoside: false, cfSuperclass: 'Organic oxygen compounds' },
  sucrose: { smiles: 'OC[C@H]1O[C@@](CO)(O[C@H]2O[C@H](CO)[C@@H](O)[C@H](O)[C@H]2O)[C@@H](O)[C@@H]1O', pathway: 'Carbohydrates', superclass: 'Saccharides', class: 'Disaccharides' },
  resveratrol: { smiles: 'Oc1ccc(/C=C/c2cc(O)cc(O)c2)cc1', pathway: 'Shikimates and Phenylpropanoids', superclass: 'Stilbenoids', cfClass: 'Stilbenes' },
  umbelliferone: { smiles: 'O=c1ccc2ccc(O)cc2o1', pathway: 'Shikimates and Phenylpropanoids', superclass: 'Coumarins', class: 'Simple coumarins', cfClass: 'Coumarins and derivatives' },
  psoralen: { smiles: 'O=c1ccc2cc3ccoc3cc2o1', pathway: 'Shikimates and Phenylpropanoids', superclass: 'Coumarins', class: 'Furocoumarins' },
  ferulic_acid: { smiles: 'COc1cc(/C=C/C(=O)O)ccc1O', pathway: 'Shikimates and Phenylpropanoids', superclass: 'Phenylpropanoids (C6-C3)', cfClass: 'Cinnamic acids and derivatives' },
  gallic_acid: { smiles: 'OC(=O)c1cc(O)c(O)c(O)c1', pathway: 'Shikimates and Phenylpropanoids', superclass: 'Phenolic acids (C6-C1)' },
  pinoresinol: { smiles: 'COc1cc([C@@H]2OC[C@H]3[C@@H]2CO[C@@H]3c2ccc(O)c(OC)c2)ccc1O', pathway: 'Shikimates and Phenylpropanoids', superclass: 'Lignans', class: 'Furofuranoid lignans' },
  emodin: { smiles: 'Cc1cc(O)c2c(c1)C(=O)c1cc(O)cc(O)c1C2=O', pathway: 'Polyketides', class: 'Anthraquinones and anthrones' },
  plumbagin: { smiles: 'CC1=CC(=O)c2c(O)cccc2C1=O', pathway: 'Polyketides', superclass: 'Naphthalenes', class: 'Naphthoquinones' },
  glycine: { smiles: 'NCC(=O)O', pathway: 'Amino acids and Peptides', superclass: 'Small peptides', cfSuperclass: 'Organic acids and derivatives' },
  penicillin_g: { smiles: 'CC1(C)S[C@@H]2[C@H](NC(=O)Cc3ccccc3)C(=O)N2[C@H]1C(=O)O', pathway: 'Amino acids and Peptides', superclass: 'β-lactams', class: 'Penicillins' },
};

t.test('textbook natural products', async (t) => {
  for (const [name, x] of Object.entries(TEXTBOOK)) {
    const e = classifyStructure(rdkit, x.smiles);
    const np = e.npclassifier;
    t.equal(np.pathway, x.pathway, `${name}: pathway`);
    if (x.superclass) t.equal(np.superclass, x.superclass, `${name}: superclass`);
    if (x.class) t.equal(np.class, x.class, `${name}: class`);
    if (x.glycoside !== undefined) t.equal(np.is_glycoside, x.glycoside, `${name}: is_glycoside`);
    if (x.cfSuperclass) t.equal(e.superclass?.name, x.cfSuperclass, `${name}: ChemOnt superclass`);
    if (x.cfClass) t.equal(e.class?.name, x.cfClass, `${name}: ChemOnt class`);
  }
});

t.test('entity shape (ClassyFire fields)', async (t) => {
  const e = classifyStructure(rdkit, TEXTBOOK.caffeine.smiles);
  t.equal(e.kingdom?.name, 'Organic compounds');
  t.equal(e.kingdom?.chemont_id, 'CHEMONTID:0000000');
  t.equal(e.kingdom?.url, 'http://classyfire.wishartlab.com/tax_nodes/C0000000');
  t.equal(e.direct_parent?.name, 'Xanthines', 'caffeine is a xanthine');
  t.equal(e.inchikey, 'RYYVLZVUVIJVGH-UHFFFAOYSA-N', 'InChIKey of caffeine (docs/spec/chem-service.md §2.1 tool 33)');
  t.equal(e.molecular_framework, 'Aromatic heteropolycyclic compounds');
  t.ok(e.ancestors.includes('Organoheterocyclic compounds'), 'ancestors list the lineage');
  t.match(e.description, /^This compound belongs to the class of organic compounds known as xanthines\. These are /);
  for (const k of ['alternative_parents', 'intermediate_nodes', 'substituents', 'external_descriptors', 'predicted_chebi_terms', 'predicted_lipidmaps_terms']) {
    t.ok(Array.isArray((e as unknown as Record<string, unknown>)[k]), `${k} is a list`);
  }
  t.equal(classifyStructure(rdkit, 'CCCCCCCC').molecular_framework, 'Aliphatic acyclic compounds');
});

t.test('rule set is consistent and every SMARTS parses in MinimalLib', async (t) => {
  t.same(checkRuleSet(RULES), [], 'no dangling references, orphans or duplicate ids');
  const bad = Object.entries(RULES.patterns).filter(([, p]) => withQuery(rdkit, p.smarts, () => true) !== true).map(([k]) => k);
  t.same(bad, [], 'all patterns parse');
  const nodes = [...RULES.chemont, ...RULES.npclassifier.pathways, ...RULES.npclassifier.superclasses, ...RULES.npclassifier.classes];
  t.ok(nodes.every((n) => n.description && n.source && RULES.sources[n.source]), 'every class has a description and a cited source');
  t.ok(RULES.chemont.every((n) => /^CHEMONTID:\d{7}$/.test(n.id)), 'ChemOnt nodes carry ChemOnt identifiers');
});

t.test('an inconsistent rule set is refused', async (t) => {
  const broken = structuredClone(RULES);
  broken.npclassifier.classes[0].when = { has: 'no_such_pattern' };
  t.match(checkRuleSet(broken).join('\n'), /unknown pattern no_such_pattern/);
  t.throws(() => classifyStructure(rdkit, 'CCO', broken), /rule set is inconsistent/);
});

t.test('unreadable input is a 422 naming it', async (t) => {
  try {
    classifyStructure(rdkit, 'C1CC(');
    t.fail('no error');
  } catch (e) {
    t.ok(e instanceof AppError && e.status === 422, '422');
    t.match((e as AppError).detail, /C1CC\(/);
  }
});

/**
 * What the registry's example calls share: their molecules and the references their expected
 * answers come from (`OpExample.expected`; compared over REST and MCP by test/api/chem-http.test.ts
 * and test/api/mcp.test.ts). An expected answer is never natprod's own output.
 */

/** Caffeine as the original service's documentation writes it. */
export const CAFFEINE = 'CN1C=NC2=C1C(=O)N(C(=O)N2C)C';

/** Hordenine, a LOTUS natural product in the descriptor, VABC and NP-likeness reference fixtures. */
export const HORDENINE = 'CN(C)CCc1ccc(O)cc1';

/** Picein (4-acetylphenyl β-D-glucopyranoside), a natural glycoside. */
export const PICEIN = 'OC[C@H]1O[C@@H](Oc2ccc(cc2)C(C)=O)[C@H](O)[C@@H](O)[C@@H]1O';

/** Answers computed with native RDKit by the script that names every example it computes. */
export const NATIVE_RDKIT = 'native RDKit 2022.09.3 (python3-rdkit), test/fixtures/tools/registry_examples_reference.py';

/** The original service's documented answers (docs/spec/chem-service.md, section of the operation). */
export const SPEC = (section: string) => `the original service's documented answer, docs/spec/chem-service.md ${section}`;

/** Acetone as a V2000 molfile (RDKit 2D layout), the original service's `standardize_molblock` example. */
export const ACETONE_MOLFILE = `
     RDKit          2D

  4  3  0  0  0  0  0  0  0  0999 V2000
    0.0000    0.0000    0.0000 C   0  0  0  0  0  0  0  0  0  0  0  0
    1.2990    0.7500    0.0000 C   0  0  0  0  0  0  0  0  0  0  0  0
    2.5981   -0.0000    0.0000 C   0  0  0  0  0  0  0  0  0  0  0  0
    1.2990    2.2500    0.0000 O   0  0  0  0  0  0  0  0  0  0  0  0
  1  2  1  0
  2  3  1  0
  2  4  2  0
M  END
`;

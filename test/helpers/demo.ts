/**
 * The LOTUS demo set imported into a test app, deriving each structure once per test file: the
 * second runner mode (and store) of a file reuses the first one's derivations.
 */
import { importDemo } from '../../api/catalog/import/demo.ts';
import type { DeriveInput, DerivedMolecule } from '../../shared/chem/catalog/ports.ts';
import type { Services } from '../../api/services.ts';

const derived = new Map<string, Promise<DerivedMolecule>>();

export async function importDemoOnce(services: Services): Promise<void> {
  const derive = (input: DeriveInput) => {
    let d = derived.get(input.structure);
    if (!d) derived.set(input.structure, (d = services.derive(input)));
    return d;
  };
  await importDemo(services.store, { derive });
}

/**
 * The registry says which toolkits an operation accepts (its `toolkit` enum, shared/ops); the
 * sidecar routes (shared/toolkits/routes.ts) say which of them a sidecar answers. They must name
 * the same toolkits: one accepted but not routed would reach an RDKit thread under another name.
 * RDKit and OpenChemLib run on the threads themselves (3D coordinates), not in a sidecar, except
 * native RDKit's 3D embedding (the WASM build has none): there `rdkit` is a sidecar's.
 */
import t from 'tap';
import { OPERATIONS } from '../../shared/ops/index.ts';
import { toolkitsOf } from '../../shared/toolkits/routes.ts';

const ON_THREADS = ['rdkit', 'openchemlib'];
const RDKIT_SIDECAR = ['generate_3d_coordinates', 'depict_3d_molecule_depict_3D_get'];

type Node = { options?: readonly string[]; def?: { innerType?: Node }; unwrap?: () => Node };
function accepted(op: (typeof OPERATIONS)[number]): string[] {
  const shape = (op.args as unknown as { shape?: Record<string, Node> }).shape;
  let node = shape?.toolkit;
  for (let i = 0; node && !node.options && i < 4; i++) node = node.def?.innerType ?? node.unwrap?.();
  return [...(node?.options ?? [])];
}

t.test('every toolkit the registry accepts besides the threads\' own is answered by a sidecar, and no other', async (t) => {
  let checked = 0;
  for (const op of OPERATIONS) {
    const others = accepted(op).filter((k) => !ON_THREADS.includes(k) || (k === 'rdkit' && RDKIT_SIDECAR.includes(op.task))).sort();
    t.same(others, [...toolkitsOf(op.task)].sort(), op.name);
    if (others.length) checked++;
  }
  t.ok(checked >= 8, `${checked} operations accept cdk or openbabel`);
});

t.test('toolkit=rdkit goes to the native RDKit sidecar for the 3D operations only', async (t) => {
  for (const op of OPERATIONS) {
    const routed = toolkitsOf(op.task).includes('rdkit');
    t.equal(routed, RDKIT_SIDECAR.includes(op.task), op.name);
    if (routed) t.ok(accepted(op).includes('rdkit'), `${op.name} accepts rdkit`);
  }
});

/**
 * Worker task of /depict/2D_enhanced (depict-enhanced.ts). CDK draws it, in its sidecar: the pool
 * routes every call there (toolkit=cdk is the operation's only toolkit; shared/toolkits/routes.ts).
 * This task runs only in a pool without toolkits attached, and says so.
 */
import { AppError } from '../errors.ts';
import type { OpTasks } from './types.ts';
import type { depictEnhancedOps } from './depict-enhanced.ts';

export const depictEnhancedTasks = {
  depict_2d_molecule_enhanced: () => {
    throw new AppError(422, '/depict/2D_enhanced is drawn by CDK, which this process does not run (no toolkit sidecars here; docs/toolkits.md)', 'toolkit_unavailable');
  },
} satisfies OpTasks<typeof depictEnhancedOps>;

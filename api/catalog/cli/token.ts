/**
 * `npm run token -- --email <e> --role <reader|curator|admin> [--password <p>]`
 * Creates (or updates the role of) the user and prints a new API token as the LAST line.
 * Safe while the service runs: the embedded store serialises processes with its lock file and the
 * service reloads the changed token file at its next request; MongoDB needs nothing special.
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../../../shared/config.ts';
import { ensureUser, issueToken } from '../auth/auth.ts';
import { openStore } from '../store/open.ts';
import { ROLES, type Role } from '../schema/types.ts';

const USAGE = 'usage: npm run token -- --email <email> --role <reader|curator|admin> [--password <password>]';

async function main(): Promise<number> {
  let values: { email?: string; role?: string; password?: string; help?: boolean };
  try {
    ({ values } = parseArgs({ options: { email: { type: 'string' }, role: { type: 'string' }, password: { type: 'string' }, help: { type: 'boolean' } } }));
  } catch (e) {
    console.error(`${(e as Error).message}\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const role = (values.role ?? 'reader') as Role;
  if (!values.email || !/^[^@\s]+@[^@\s]+$/.test(values.email) || !ROLES.includes(role)) {
    console.error(USAGE);
    return 2;
  }
  const cfg = loadConfig();
  const store = await openStore({ mongoUrl: cfg.MONGO_URL, dataDir: cfg.DATA_DIR });
  try {
    const user = await ensureUser(store, values.email, role, values.password);
    const token = await issueToken(store, user.id, 'cli');
    console.error(`user ${user.email} (id ${user.id}, role ${role}); token follows`);
    console.log(token);
  } finally {
    await store.close();
  }
  return 0;
}

process.exitCode = await main();

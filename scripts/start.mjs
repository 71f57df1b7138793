// What package.json's process scripts run (`npm start`, `npm run start:worker`, ...): rebuilds
// dist/ first when its sources changed since the last build (scripts/build.mjs; ~10 ms to check,
// ~0.5 s to build), then runs the named bundle in this same process, as `node dist/<name>.mjs`
// would (process.argv included). The Docker image runs `node dist/<name>.mjs` directly.
//
//   node scripts/start.mjs server|worker|mcp-stdio|token|catalog-import [arguments...]
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DIST, ENTRIES, ensureBuilt } from './build.mjs';

const [name, ...args] = process.argv.slice(2);
if (!name || !Object.hasOwn(ENTRIES, name)) {
  process.stderr.write(`usage: node scripts/start.mjs ${Object.keys(ENTRIES).join('|')} [arguments...]\n`);
  process.exit(2);
}
await ensureBuilt();
const file = join(DIST, `${name}.mjs`);
process.argv = [process.argv[0], file, ...args];
await import(pathToFileURL(file).href);

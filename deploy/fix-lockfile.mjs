// The npm registry mirror of our build machines lacks the darwin/win32/linux-arm builds of
// msgpackr-extract (an optional native accelerator of msgpackr, used by BullMQ). `npm install`
// then writes a lock without those entries and `npm ci` (npm 11) refuses it as out of sync.
// Run this after every `npm install` that rewrites package-lock.json: it restores the entries
// as optional, platform-restricted packages that npm skips on linux-x64.
import { readFileSync, writeFileSync } from 'node:fs';

const file = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(file, 'utf8'));
const parent = lock.packages['node_modules/msgpackr-extract'];
if (!parent) process.exit(0);
for (const [name, version] of Object.entries(parent.optionalDependencies ?? {})) {
  const key = `node_modules/${name}`;
  if (lock.packages[key]) continue;
  const [os, cpu] = name.split('msgpackr-extract-')[1].split('-');
  lock.packages[key] = { version, cpu: [cpu], license: 'MIT', optional: true, os: [os] };
}
lock.packages = Object.fromEntries(Object.entries(lock.packages).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
writeFileSync(file, JSON.stringify(lock, null, 2) + '\n');

/**
 * What CDK and Open Babel answered when run directly (test/fixtures/toolkits/make.sh), and whether
 * each toolkit (and native RDKit) is installed here (the tests that need one skip with this reason otherwise).
 */
import { readFileSync } from 'node:fs';
import { locateCdk, locateOpenBabel, locateRdkit } from '../../shared/toolkits/index.ts';

const FIX = new URL('../fixtures/toolkits/', import.meta.url);
/** A fixture file's rows (tab-separated fields), comment lines left out. */
export const rows = (name: string) =>
  readFileSync(new URL(name, FIX), 'utf8').split('\n').filter((l) => l && !l.startsWith('#')).map((l) => l.split('\t'));
const cdk = locateCdk();
const ob = locateOpenBabel();
export const noCdk = cdk.ok ? false : `CDK not installed (${cdk.problem}): apt-get install default-jre-headless libcdk-java`;
export const noOb = ob.ok ? false : `Open Babel not installed (${ob.problem}): apt-get install python3-openbabel`;
const rdkit = locateRdkit();
export const noRdkit = rdkit.ok ? false : `native RDKit not installed (${rdkit.problem}): apt-get install python3-rdkit`;
/** A molblock without its header's second line (program name and a timestamp). */
export const body = (molblock: string) => molblock.split('\n').map((l, i) => (i === 1 ? '' : l)).join('\n');

// A stand-in for the OPSIN bridge (api/names/NatprodOpsin.java) speaking the same line protocol,
// for the wrapper's tests: answers `OK <name>` (so each answer shows which name it belongs to),
// and misbehaves on purpose for some names: `hang` never answers, `die` exits, `skew` answers
// with another id, `unknown` fails, `warn` answers with a warning. Before READY it prints noise.
import { createInterface } from 'node:readline';

process.stdout.write('some library chatter before the bridge is ready\n');
setTimeout(() => process.stdout.write('READY fake-1.0\n'), Number(process.env.FAKE_OPSIN_START_MS ?? 0));
const rl = createInterface({ input: process.stdin });
rl.on('line', (line) => {
  const [id, name] = line.split('\t');
  if (name === 'hang') return;
  if (name === 'die') process.exit(3);
  if (name === 'skew') return void process.stdout.write(`${id}0\tOK\tC\n`);
  if (name === 'unknown') return void process.stdout.write(`${id}\tFAIL\tunknown is unparsable\n`);
  if (name === 'warn') return void process.stdout.write(`${id}\tWARN\tCC\tstereo ignored\n`);
  process.stdout.write(`${id}\tOK\t${name}\n`);
});
rl.on('close', () => process.exit(0));

/**
 * One SD record split into its molblock and its data fields, as the standardize operation
 * receives it. Field values are typed as RDKit's GetPropsAsDict types them (integers and decimal
 * numbers become numbers); multi-line values keep their line breaks.
 */
import { AppError } from '../../errors.ts';

export type SdValue = string | number;

export interface SdRecord {
  molblock: string;
  fields: Record<string, SdValue>;
}

function typed(text: string): SdValue {
  const t = text.trim();
  if (/^[-+]?\d+$/.test(t) && Number.isSafeInteger(Number(t))) return Number(t);
  if (/^[-+]?(\d+\.\d*|\.\d+|\d+)([eE][-+]?\d+)?$/.test(t)) return Number(t);
  return text;
}

export function splitSdRecord(text: string): SdRecord {
  const normalised = text.replace(/\r\n?/g, '\n');
  const records = normalised.split(/^\$\$\$\$[^\n]*$/m).filter((r) => r.trim() !== '');
  if (records.length !== 1) {
    throw new AppError(422, `Expected exactly one molblock (SD record), got ${records.length}`, 'invalid_input');
  }
  // After a "$$$$" line the record starts with that line's newline; the title line follows it.
  const record = normalised.startsWith(records[0]) ? records[0] : records[0].slice(1);
  const end = record.search(/^M {2}END\s*$/m);
  if (end < 0) throw new AppError(422, 'Error reading molblock, check again: no "M  END" line', 'invalid_input');
  const endLine = record.indexOf('\n', end);
  const molblock = `${endLine < 0 ? record : record.slice(0, endLine)}\n`;
  const fields: Record<string, SdValue> = {};
  const lines = endLine < 0 ? [] : record.slice(endLine + 1).split('\n');
  for (let i = 0; i < lines.length; i++) {
    const header = /^>.*<([^>]+)>/.exec(lines[i]);
    if (!header) continue;
    const value: string[] = [];
    for (i = i + 1; i < lines.length && lines[i].trim() !== ''; i++) value.push(lines[i]);
    fields[header[1]] = typed(value.join('\n'));
  }
  return { molblock, fields };
}

/**
 * Streaming SD-file reader (MDL CTfile format, chapter "SDF"): records end with a `$$$$` line;
 * each holds a molblock (V2000 or V3000, up to `M  END`) followed by data items, each a header
 * line such as `> <NAME>` or `>  25  <CAS> (DT12)` and value lines up to a blank line.
 */

export interface SdfRecord {
  /** 1-based line on which the record starts. */
  line: number;
  molblock: string;
  data: Record<string, string>;
}

/** Lines of a text stream, without their LF/CRLF endings. */
export async function* textLines(chunks: AsyncIterable<string>): AsyncGenerator<string> {
  let rest = '';
  let first = true;
  for await (let chunk of chunks) {
    if (first) {
      if (chunk.charCodeAt(0) === 0xfeff) chunk = chunk.slice(1);
      first = false;
    }
    rest += chunk;
    let nl: number;
    while ((nl = rest.indexOf('\n')) >= 0) {
      yield rest.slice(0, nl).replace(/\r$/, '');
      rest = rest.slice(nl + 1);
    }
  }
  if (rest !== '') yield rest.replace(/\r$/, '');
}

const DATA_HEADER = /^>.*<([^>]*)>/;

function parseRecord(lines: string[], line: number): SdfRecord {
  const end = lines.findIndex((l) => l.startsWith('M  END'));
  const molEnd = end >= 0 ? end + 1 : lines.length;
  const data: Record<string, string> = {};
  let key: string | undefined;
  let value: string[] = [];
  const flush = () => {
    if (key !== undefined) data[key] = value.join('\n').trim();
    key = undefined;
    value = [];
  };
  for (const l of lines.slice(molEnd)) {
    const m = DATA_HEADER.exec(l);
    if (m && key === undefined) {
      key = m[1].trim();
    } else if (key !== undefined) {
      if (l.trim() === '') flush();
      else value.push(l);
    }
  }
  flush();
  return { line, molblock: lines.slice(0, molEnd).join('\n') + '\n', data };
}

export async function* sdfRecords(chunks: AsyncIterable<string>): AsyncGenerator<SdfRecord> {
  let lines: string[] = [];
  let lineNo = 0;
  let start = 1;
  for await (const l of textLines(chunks)) {
    lineNo++;
    if (l.startsWith('$$$$')) {
      yield parseRecord(lines, start);
      lines = [];
      start = lineNo + 1;
    } else {
      lines.push(l);
    }
  }
  // A last record without its `$$$$` terminator still counts if it holds a molblock.
  if (lines.some((l) => l.startsWith('M  END'))) yield parseRecord(lines, start);
}

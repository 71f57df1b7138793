/**
 * Streaming reader for delimited text (CSV, TSV) with RFC 4180 quoting: a field that starts with
 * `"` runs to the next unpaired `"`, `""` inside it is one quote, and it may span lines. The
 * LOTUS TSV export needs this too: R wrote multi-valued ids as `"c(""1"", ""2"")"`.
 * Lines end with LF or CRLF; a UTF-8 byte-order mark is dropped.
 */

export interface DelimitedRecord {
  /** 1-based line on which the record starts (for error reports). */
  line: number;
  fields: string[];
}

/** Splits a stream of text chunks into records of fields. */
export async function* delimitedRecords(chunks: AsyncIterable<string>, delimiter: string): AsyncGenerator<DelimitedRecord> {
  let field = '';
  let fields: string[] = [];
  let inQuotes = false;
  /** The previous character closed a quoted section: `"` next is an escaped quote. */
  let quoteClosed = false;
  let line = 1;
  let recordLine = 1;
  let first = true;
  let pendingCR = false;
  let atFieldStart = true;

  const endRecord = (): DelimitedRecord | undefined => {
    fields.push(field);
    const rec = { line: recordLine, fields };
    field = '';
    fields = [];
    // A blank line is no record.
    return rec.fields.length === 1 && rec.fields[0] === '' ? undefined : rec;
  };

  for await (let chunk of chunks) {
    if (first) {
      if (chunk.charCodeAt(0) === 0xfeff) chunk = chunk.slice(1);
      first = false;
    }
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk[i];
      if (pendingCR) {
        pendingCR = false;
        if (c === '\n') continue;
      }
      if (inQuotes) {
        if (c === '"') {
          inQuotes = false;
          quoteClosed = true;
        } else {
          if (c === '\n') line++;
          field += c;
        }
        continue;
      }
      if (c === '"' && (quoteClosed || atFieldStart)) {
        // A quote opens a quoted section at the start of a field; right after a closing quote it
        // is an escaped quote and the section goes on. Elsewhere it is an ordinary character.
        if (quoteClosed) field += '"';
        inQuotes = true;
        quoteClosed = false;
        atFieldStart = false;
        continue;
      }
      quoteClosed = false;
      atFieldStart = c === delimiter || c === '\n' || c === '\r';
      if (c === delimiter) {
        fields.push(field);
        field = '';
      } else if (c === '\n' || c === '\r') {
        if (c === '\r') pendingCR = true;
        const rec = endRecord();
        line++;
        recordLine = line;
        if (rec) yield rec;
      } else {
        field += c;
      }
    }
  }
  if (field !== '' || fields.length > 0) {
    const rec = endRecord();
    if (rec) yield rec;
  }
}

/** Records as objects keyed by the header row's names. */
export async function* delimitedRows(
  chunks: AsyncIterable<string>,
  delimiter: string,
): AsyncGenerator<{ line: number; header: string[]; values: Record<string, string> }> {
  let header: string[] | undefined;
  for await (const rec of delimitedRecords(chunks, delimiter)) {
    if (!header) {
      header = rec.fields.map((h) => h.trim());
      continue;
    }
    const values: Record<string, string> = {};
    header.forEach((h, i) => {
      values[h] = rec.fields[i] ?? '';
    });
    yield { line: rec.line, header, values };
  }
}

/**
 * The `format=html` rendering of a descriptor object: a small style block followed by a
 * table shaped like the pandas `DataFrame.to_html()` output of the original
 * service (`<table border="1" class="dataframe">`, a row index, `Descriptor name | Values`).
 */
import type { DescriptorValue } from './descriptors.ts';

const STYLE = `<style>
table.dataframe { border-collapse: collapse; font-family: sans-serif; font-size: 14px; }
table.dataframe th, table.dataframe td { border: 1px solid #ccc; padding: 4px 8px; text-align: left; }
table.dataframe thead th { background: #f0f0f0; }
table.dataframe tbody tr:nth-child(even) { background: #fafafa; }
</style>
`;

function escapeHtml(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');
}

/** Python's str() of the value, as pandas prints it. */
function show(value: DescriptorValue): string {
  if (value === null) return 'None';
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  return String(value);
}

export function descriptorsHtml(values: Record<string, DescriptorValue>): string {
  return descriptorsTableHtml(['Values'], Object.entries(values).map(([name, value]) => [name, [value]]));
}

/**
 * The same table with one column per value list: `toolkit=all` answers `RDKit Descriptors | CDK
 * Descriptors` (the original's three-column frame).
 */
export function descriptorsTableHtml(columns: string[], rows: [string, DescriptorValue[]][]): string {
  const body = rows
    .map(
      ([name, values], i) =>
        `    <tr>\n      <th>${i}</th>\n      <td>${escapeHtml(name)}</td>\n` +
        values.map((v) => `      <td>${escapeHtml(show(v))}</td>\n`).join('') +
        '    </tr>',
    )
    .join('\n');
  return (
    STYLE +
    '<table border="1" class="dataframe">\n  <thead>\n    <tr style="text-align: right;">\n      <th></th>\n' +
    '      <th>Descriptor name</th>\n' +
    columns.map((c) => `      <th>${escapeHtml(c)}</th>\n`).join('') +
    '    </tr>\n  </thead>\n  <tbody>\n' +
    body +
    '\n  </tbody>\n</table>'
  );
}

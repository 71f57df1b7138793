/**
 * JSON text whose numbers are floats as Python's json module writes them: an integral value keeps
 * `.0` (`1.0`), any other number is written as JSON.stringify writes it (the same shortest
 * round-trip digits for the values our operations produce). Used for operations whose original
 * answers are Python floats (the registry's `floats` flag), so clients that compare the text see
 * the original's spelling.
 */
export function floatJson(value: unknown): string {
  if (typeof value === 'number') return Number.isInteger(value) && Math.abs(value) < 1e16 ? `${value}.0` : JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((v) => floatJson(v)).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const fields = Object.entries(value).filter(([, v]) => v !== undefined);
    return `{${fields.map(([k, v]) => `${JSON.stringify(k)}:${floatJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

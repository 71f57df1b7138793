/**
 * Number formatting that matches the Python reference service: values are rounded with
 * `round(x, n)` / `"%.nf"`, which work on the exact binary value and break exact ties to
 * even. `Number.prototype.toFixed` also works on the exact value but breaks ties away from
 * zero, so exact ties (0.125, 0.375 ...) are detected on the full decimal expansion.
 */
export function pyRound(x: number, digits: number): number {
  if (!Number.isFinite(x)) return x;
  const rounded = Number(x.toFixed(digits));
  // Fast exit for values that are clearly no tie: the scaled value of an exact tie ends in .5
  // up to the scaling's rounding error (< 2^-52 relative), far below this margin. The exact
  // test below writes 100 digits and costs ~1 µs, several times per molecule.
  const scaled = Math.abs(x) * 10 ** digits;
  if (Math.abs(scaled - Math.floor(scaled) - 0.5) > 1e-9 * Math.max(1, scaled)) return rounded;
  // toFixed(100) is the exact expansion for every double above ~1e-12 in magnitude.
  const exact = Math.abs(x).toFixed(100);
  const frac = exact.slice(exact.indexOf('.') + 1);
  const isTie = frac[digits] === '5' && /^0*$/.test(frac.slice(digits + 1));
  if (!isTie) return rounded;
  const scale = 10 ** digits;
  const down = Math.trunc(Math.abs(x) * scale);
  const even = down % 2 === 0 ? down : down + 1;
  const r = even / scale;
  return x < 0 ? -r : r;
}

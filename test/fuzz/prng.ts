/**
 * Seeded randomness for the fuzzer. Every case draws from its own generator, seeded from the run
 * seed and the case number, so case N is the same input whatever the concurrency or the order in
 * which answers come back (and can be replayed alone: FUZZ_ONLY=N).
 */

/** sfc32, seeded through splitmix32: small, fast and good enough for input generation. */
export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number, stream = 0) {
    let s = (seed ^ Math.imul(stream + 1, 0x9e3779b9)) >>> 0;
    const next = () => {
      s = (s + 0x9e3779b9) >>> 0;
      let z = s;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
      return (z ^ (z >>> 16)) >>> 0;
    };
    this.a = next();
    this.b = next();
    this.c = next();
    this.d = next();
    for (let i = 0; i < 12; i++) this.u32();
  }

  u32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** Uniform in [0, 1). */
  float(): number {
    return this.u32() / 4294967296;
  }

  /** Integer in [lo, hi] (inclusive). */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.float() * (hi - lo + 1));
  }

  bool(p = 0.5): boolean {
    return this.float() < p;
  }

  pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.float() * xs.length)];
  }

  /** One of `table`'s values, drawn with the weights given as keys' numbers. */
  weighted<T>(table: readonly (readonly [number, T])[]): T {
    const total = table.reduce((s, [w]) => s + w, 0);
    let x = this.float() * total;
    for (const [w, v] of table) {
      x -= w;
      if (x < 0) return v;
    }
    return table[table.length - 1][1];
  }

  /** A length skewed towards small values, occasionally up to `max`. */
  size(max: number): number {
    const r = this.float();
    if (r < 0.6) return this.int(0, Math.min(max, 8));
    if (r < 0.9) return this.int(0, Math.min(max, 64));
    return this.int(0, max);
  }
}

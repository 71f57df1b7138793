/**
 * CDK's deprecated `CanonicalLabeler` (Weininger, Weininger & Weininger, J. Chem. Inf. Comput.
 * Sci. 29, 97 (1989), as CDK implements it). HOSECodeGenerator sorts every sphere by these
 * labels before scoring, so equal-scoring branches come out in this order; reproducing CDK's
 * codes therefore needs CDK's labels, quirks included: the initial invariant is a decimal
 * string concatenation, neighbour primes multiply in Java's wrapping 64-bit `long`, and ties
 * are broken by doubling every rank and lowering the first tied one.
 */

export interface LabelAtom {
  z: number;
  charge: number;
  implicitH: number;
}

interface Pair {
  atom: number;
  last: bigint;
  curr: bigint;
  prime: bigint;
}

const primes: bigint[] = [];
/** The n-th prime (0-based), as CDK's Primes.getPrimeAt. */
function primeAt(n: number): bigint {
  let c = primes.length ? Number(primes[primes.length - 1]) + 1 : 2;
  while (primes.length <= n) {
    let isPrime = true;
    for (let d = 2; d * d <= c; d++) {
      if (c % d === 0) {
        isPrime = false;
        break;
      }
    }
    if (isPrime) primes.push(BigInt(c));
    c++;
  }
  return primes[n];
}

const long = (x: bigint) => BigInt.asIntN(64, x);
const cmp = (a: bigint, b: bigint) => (a > b ? 1 : a < b ? -1 : 0);

/** Canonical labels 1..n per atom index. `nbrs` lists explicit neighbours (CDK's connected atoms). */
export function cdkCanonicalLabels(atoms: LabelAtom[], nbrs: number[][]): number[] {
  if (atoms.length === 0) return [];
  const pairs: Pair[] = atoms.map((a, i) => {
    const deg = nbrs[i].length;
    // Connections with H, heavy connections, Z, sign of the partial charge (never set by the
    // SMILES parser, so 0), |formal charge|, H count: digits concatenated, read as a number.
    const inv = `${deg + a.implicitH}${deg}${a.z}0${Math.abs(a.charge)}${a.implicitH}`;
    return { atom: i, last: 0n, curr: BigInt(inv), prime: 0n };
  });
  const byAtom = [...pairs];
  let v = pairs;
  const setPrime = (p: Pair) => {
    p.prime = primeAt(Number(p.curr) - 1);
  };
  const primeProduct = () => {
    for (const p of v) {
      let prod = 1n;
      for (const n of nbrs[p.atom]) prod = long(prod * byAtom[n].prime);
      p.last = p.curr;
      p.curr = prod;
    }
  };
  const sortAndRank = () => {
    v = [...v].sort((a, b) => cmp(a.curr, b.curr));
    v = [...v].sort((a, b) => cmp(a.last, b.last));
    let num = 1;
    const ranks: number[] = [];
    v.forEach((p, x) => {
      if (x > 0 && !(v[x - 1].last === p.last && v[x - 1].curr === p.curr)) num++;
      ranks[x] = num;
    });
    v.forEach((p, x) => {
      p.curr = BigInt(ranks[x]);
      setPrime(p);
    });
  };
  const invariantPartition = () =>
    v[v.length - 1].curr === BigInt(v.length) || v.every((p) => p.curr === p.last);
  const breakTies = () => {
    let tie = 0;
    let found = false;
    v.forEach((p, x) => {
      p.curr *= 2n;
      setPrime(p);
      if (x !== 0 && !found && p.curr === v[x - 1].curr) {
        tie = x - 1;
        found = true;
      }
    });
    v[tie].curr -= 1n;
    setPrime(v[tie]);
  };

  sortAndRank();
  for (;;) {
    if (!invariantPartition()) {
      primeProduct();
      sortAndRank();
      continue;
    }
    if (v[v.length - 1].curr < BigInt(v.length)) {
      breakTies();
      primeProduct();
      sortAndRank();
      continue;
    }
    break;
  }
  return byAtom.map((p) => Number(p.curr));
}

/** What a generator produces and what the runner records. */

export interface Req {
  method: string;
  /** Path and query as sent: already encoded, and possibly encoded wrongly on purpose. */
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

export interface Case {
  /** Family of the case, e.g. `chem:rest`, `catalog:write`; counts are kept per target. */
  target: string;
  /** Short description for reports (operation, route, what is hostile about it). */
  label: string;
  req: Req;
  /** A catalog write with at least one invalid part: it must be refused, and change nothing. */
  write?: boolean;
  /** 503 is an acceptable answer: the operation may depend on an external service, unreachable here. */
  external?: boolean;
  /** JSON-RPC over POST /mcp: a tool's own status travels inside the result. */
  mcp?: boolean;
  /** Follow a 202's job to its end and classify the job's outcome too. */
  follow?: boolean;
  /** Send this many copies at once (the known concurrent cases). */
  burst?: number;
}

/** Ids and tokens of the fuzz server's catalog, for generators that address real records. */
export interface Context {
  tokens: { admin: string; curator: string; reader: string };
  adminEmail: string;
  adminPassword: string;
  ids: { molecules: number[]; organisms: number[]; citations: number[]; collections: number[]; users: number[] };
  /** InChIKeys and SMILES of stored molecules (duplicate-structure writes). */
  stored: { smiles: string[]; inchikeys: string[] };
}

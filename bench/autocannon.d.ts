/** The part of autocannon's API that bench/http.ts uses: the package ships no type declarations. */
declare module 'autocannon' {
  export interface Request {
    method?: string;
    path?: string;
    /** Called before each send of this entry; returns the request to send. */
    setupRequest?: (req: Request, context: Record<string, unknown>) => Request;
  }
  export interface Options {
    url: string;
    connections?: number;
    /** Seconds. */
    duration?: number;
    /** Requests to send in all (instead of a duration). */
    amount?: number;
    /** Seconds a request may take before it counts as a timeout (and an error). */
    timeout?: number;
    requests?: Request[];
  }
  /** Latencies in ms; request counts per second (sampled every second). */
  export interface Stats {
    average: number;
    mean: number;
    p50: number;
    p99: number;
    total: number;
  }
  export interface Result {
    requests: Stats;
    latency: Stats;
    non2xx: number;
    /** Every failed request, timeouts included. */
    errors: number;
    timeouts: number;
    statusCodeStats: Record<string, { count: number }>;
  }
  function autocannon(opts: Options): Promise<Result>;
  export default autocannon;
}

/** The part of autocannon 8's programmatic API the bench uses (the package ships no types). */
declare module "autocannon" {
  interface Histogram {
    average: number;
    mean: number;
    stddev: number;
    min: number;
    max: number;
    total: number;
    p2_5: number;
    p50: number;
    p90: number;
    p97_5: number;
    p99: number;
    p99_9: number;
  }

  interface Options {
    url: string;
    connections?: number;
    duration?: number;
    pipelining?: number;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    expectBody?: string;
    /** A mismatch when it answers false. */
    verifyBody?: (body: string) => boolean;
    /** Cycled per connection; setupRequest may change each request before it is sent. */
    requests?: { setupRequest?: (req: { headers?: Record<string, string> }) => object }[];
    timeout?: number;
    title?: string;
  }

  interface Result {
    title?: string;
    requests: Histogram;
    latency: Histogram;
    throughput: Histogram;
    duration: number;
    errors: number;
    timeouts: number;
    mismatches: number;
    non2xx: number;
    "2xx": number;
  }

  function autocannon(options: Options): Promise<Result> & { stop(): void };
  export default autocannon;
  export type { Histogram, Options, Result };
}

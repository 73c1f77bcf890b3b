// A bounded, paced load of mixed GET and POST requests over a fixed set of keep-alive
// connections (node:http's Agent), recording every request's outcome and latency.
import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';

export interface LoadOptions {
  url: string;
  adminKey: string;
  /** Concurrent requests, and keep-alive connections to nginx. */
  connections: number;
  /** Requests per second, all connections together (a ceiling: slow answers lower it). */
  rate: number;
  /** The load stops after this many requests even if nobody stops it. */
  maxRequests: number;
  /**
   * Rate-limit keys the load spreads over (`x-api-key: load-<n>`). With at most
   * maxRequests / clientKeys requests per key, below the limit, the load never meets a 429.
   */
  clientKeys: number;
}

export interface Sample {
  /** performance.now() when the request started, and its duration, in ms. */
  start: number;
  ms: number;
  method: 'GET' | 'POST';
  path: string;
  status: number;
  /** Set when the request failed: an unexpected status or a network error. */
  failure?: string | undefined;
  instance?: string | undefined;
}

const expected = { GET: 200, POST: 201 } as const;

export class Load {
  readonly samples: Sample[] = [];
  private sent = 0;
  private stopped = false;
  private workers: Promise<void>[] = [];
  private readonly agent: Agent;
  private readonly target: URL;

  constructor(private readonly options: LoadOptions) {
    this.agent = new Agent({ keepAlive: true, maxSockets: options.connections });
    this.target = new URL(options.url);
  }

  start(): void {
    const { connections, rate } = this.options;
    const interval = (connections / rate) * 1000;
    this.workers = Array.from({ length: connections }, (_, index) => this.worker(interval, (index * interval) / connections));
  }

  /** Lets in-flight requests finish, then closes the connections. */
  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all(this.workers);
    this.agent.destroy();
  }

  get done(): boolean {
    return this.sent >= this.options.maxRequests;
  }

  private async worker(interval: number, offset: number): Promise<void> {
    let next = performance.now() + offset;
    while (!this.stopped && this.sent < this.options.maxRequests) {
      const wait = next - performance.now();
      if (wait > 0) await sleep(wait);
      // Behind schedule (slow answers): carry on from now rather than sending a burst.
      next = Math.max(next + interval, performance.now());
      this.samples.push(await this.one(this.sent++));
    }
  }

  /** Request n: one in three a POST that creates a book, the others reads. */
  private one(n: number): Promise<Sample> {
    const post = n % 3 === 2;
    const method = post ? 'POST' : 'GET';
    const path = post ? '/admin/books' : n % 3 === 0 ? `/books/${(n % 5) + 1}` : '/books?tag=classic&limit=5';
    const headers: Record<string, string> = { 'x-api-key': `load-${n % this.options.clientKeys}` };
    let body: string | undefined;
    if (post) {
      body = JSON.stringify({ title: `Load ${n}`, author: 'Load Test', year: 2026, tags: ['load'] });
      headers['content-type'] = 'application/json';
      headers['content-length'] = String(Buffer.byteLength(body));
      headers.authorization = `Bearer ${this.options.adminKey}`;
    }
    const start = performance.now();
    return new Promise((resolve) => {
      const finish = (status: number, failure?: string, instance?: string) =>
        resolve({ start, ms: performance.now() - start, method, path, status, failure, instance });
      const outgoing = request(
        { host: this.target.hostname, port: this.target.port, method, path, headers, agent: this.agent, timeout: 10_000 },
        (response) => {
          const instance = response.headers['x-instance'] as string | undefined;
          const status = response.statusCode ?? 0;
          response.resume();
          response.once('end', () => finish(status, status === expected[method] ? undefined : `status ${status}`, instance));
          response.once('error', (error) => finish(status, `response ${error.message}`, instance));
        },
      );
      outgoing.once('timeout', () => outgoing.destroy(new Error('timed out after 10 s')));
      outgoing.once('error', (error: NodeJS.ErrnoException) => finish(0, `${error.code ?? 'error'} ${error.message}`));
      outgoing.end(body);
    });
  }
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
}

export interface Summary {
  requests: number;
  failed: number;
  p50: number;
  p99: number;
  max: number;
  perSecond: number;
}

export function summarize(samples: Sample[]): Summary {
  const times = samples.map((sample) => sample.ms).sort((a, b) => a - b);
  let first = Number.POSITIVE_INFINITY;
  let last = Number.NEGATIVE_INFINITY;
  for (const sample of samples) {
    first = Math.min(first, sample.start);
    last = Math.max(last, sample.start + sample.ms);
  }
  return {
    requests: samples.length,
    failed: samples.filter((sample) => sample.failure !== undefined).length,
    p50: percentile(times, 50),
    p99: percentile(times, 99),
    max: times.at(-1) ?? Number.NaN,
    perSecond: samples.length / Math.max((last - first) / 1000, 0.001),
  };
}

// Load generation: closed-loop throughput at N connections with autocannon's programmatic API, and latency at a
// fixed request rate (evenly paced, and autocannon's `overallRate` for comparison).
import autocannon from 'autocannon';
import http from 'node:http';
import { watchForeignCpu } from './cpu.js';

export interface LoadSpec {
  /** Base URL of the server, e.g. http://127.0.0.1:18080 */
  url: string;
  /** The path of each request (called once per request, so ids and pages can vary). */
  path: () => string;
  headers?: Record<string, string>;
  /** GET unless told; a body is sent with every request (the image-search upload). */
  method?: 'GET' | 'POST';
  body?: Buffer;
  connections: number;
  seconds: number;
  /** Requests per second over all connections; unset for a closed loop (as fast as the server answers). */
  overallRate?: number;
  /** The benchmark's own processes (servers, database backends): CPU used by any other process is reported. */
  ownPids?: () => Promise<number[]>;
}

export interface LoadResult {
  requestsPerSecond: number;
  requests: number;
  /** Responses that were not 2xx, plus connection errors and timeouts: any makes the run invalid. */
  failures: number;
  /** Latency percentiles in ms over every response, from the raw response times. */
  p50: number;
  p95: number;
  p99: number;
  max: number;
  /** Share of all CPUs used by processes outside the benchmark during the run (0–1). */
  foreignCpu: number;
}

export async function runLoad(spec: LoadSpec): Promise<LoadResult> {
  // Raw response times: autocannon's own histogram has no p95, and with a rate set it "corrects" for coordinated
  // omission assuming a 1 ms send interval (ceil(1 / per-connection rate)), which adds phantom samples to every
  // response slower than 1 ms. Its sender does not fall behind at these rates, so the raw times are the latencies.
  const latencies: number[] = [];
  const watch = await watchForeignCpu(spec.ownPids);
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: spec.url,
        connections: spec.connections,
        duration: spec.seconds,
        headers: spec.headers,
        method: spec.method ?? 'GET',
        body: spec.body,
        overallRate: spec.overallRate,
        requests: [{ setupRequest: (req) => ({ ...req, path: spec.path() }) }],
      },
      (err, res) => (err ? reject(err) : resolve(res)),
    );
    instance.on('response', (_client, _status, _bytes, ms) => latencies.push(ms));
  });
  return {
    requestsPerSecond: result.requests.total / result.duration,
    requests: result.requests.total,
    failures: result.non2xx + result.errors + result.timeouts,
    ...percentiles(latencies),
    foreignCpu: await watch.stop(),
  };
}

/** Nearest-rank percentiles of raw latencies (ms). */
function percentiles(latencies: number[]): Pick<LoadResult, 'p50' | 'p95' | 'p99' | 'max'> {
  const sorted = [...latencies].sort((a, b) => a - b);
  const at = (p: number) => (sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]);
  return { p50: at(50), p95: at(95), p99: at(99), max: sorted.at(-1) ?? NaN };
}

/**
 * Open-loop load at an evenly paced rate: request k is due at start + k / rate, whatever happened to the earlier
 * ones, and its latency runs from that due time to the end of its response (so a stalled server or sender shows up
 * in the latencies instead of hiding as a lower rate). autocannon's `overallRate` does not do this: each connection
 * sends its quota for the second back to back, so a "fixed rate" run is a burst of `connections` concurrent
 * clients at the start of every second.
 */
export async function runPaced(spec: Omit<LoadSpec, 'connections' | 'overallRate'> & { rate: number }): Promise<LoadResult> {
  const target = new URL(spec.url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const total = Math.round(spec.rate * spec.seconds);
  const latencies: number[] = [];
  const inFlight = new Set<http.ClientRequest>();
  let failures = 0;
  const watch = await watchForeignCpu(spec.ownPids);
  const start = performance.now();
  await new Promise<void>((resolve) => {
    let sent = 0;
    let sending = true;
    const settle = (req: http.ClientRequest, latency: number | null) => {
      if (!inFlight.delete(req)) return;
      if (latency === null) failures++;
      else latencies.push(latency);
      if (!sending && inFlight.size === 0) resolve();
    };
    const send = (due: number) => {
      const req = http.request(
        { agent, method: spec.method ?? 'GET', host: target.hostname, port: target.port, path: spec.path(), headers: spec.headers },
        (res) => {
          res.resume(); // the body is read and dropped
          res.on('end', () => settle(req, res.statusCode !== undefined && res.statusCode < 300 ? performance.now() - due : null));
          res.on('error', () => settle(req, null));
        },
      );
      req.on('error', () => settle(req, null));
      inFlight.add(req);
      req.end(spec.body);
    };
    const stopSending = () => {
      sending = false;
      clearInterval(timer);
      failures += total - sent; // never sent: the server had fallen behind
      if (inFlight.size === 0) resolve();
    };
    // Node's timers fire at best every millisecond: each tick sends whatever has fallen due since the last one.
    const timer = setInterval(() => {
      const due = Math.min(total, Math.floor(((performance.now() - start) * spec.rate) / 1000) + 1);
      for (; sent < due; sent++) send(start + (sent * 1000) / spec.rate);
      // More than a second's worth of requests unanswered: the server cannot keep up; piling on more would only
      // inflate its memory and slow whatever is measured next.
      if (sent === total || inFlight.size > spec.rate) stopSending();
    }, 1);
    // What is still unanswered 5 s after the last send counts as failed.
    setTimeout(
      () => {
        for (const req of [...inFlight]) {
          settle(req, null);
          req.destroy();
        }
      },
      (spec.seconds + 5) * 1000,
    ).unref();
  });
  const elapsed = (performance.now() - start) / 1000;
  agent.destroy();
  return { requestsPerSecond: latencies.length / elapsed, requests: latencies.length, failures, ...percentiles(latencies), foreignCpu: await watch.stop() };
}

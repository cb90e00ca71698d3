// The connector's HTTP transport to a PIM (pim-client.ts says what it asks): every call goes through the address
// policy with the connection-level check of lib/safe-download.ts (IP literal, every DNS answer, and the socket actually
// connected, before a byte is sent), because pim_base_url comes from an unauthenticated caller. Private and loopback
// ranges are refused unless CONNECTOR_ALLOW_PRIVATE_NETWORKS, except this server's own PUBLIC_URL origin, which is
// always allowed. Answers are capped, 429s waited out within a bound, and failures turned into PimReadError.
import http from 'node:http';
import https from 'node:https';
import { anyAddress, publicAddressesOnly } from '../../lib/address-policy.js';
import { agentFor, keepAliveGet, type Agents } from '../../lib/keep-alive.js';
import { AddressRefusedError, checkedAgents, DownloadError, filteredLookup, systemResolver, type Resolver } from '../../lib/safe-download.js';

export interface PimHttpOptions {
  /** Loopback and private ranges allowed (CONNECTOR_ALLOW_PRIVATE_NETWORKS). */
  allowPrivateNetworks: boolean;
  /** This server's PUBLIC_URL: its origin is always allowed. */
  publicUrl: string;
  /** Per call, connection and answer included; default 5 s. */
  timeoutMs?: number;
  /**
   * A 429 is waited out as its Retry-After says (1 s without one) and the read retried, while the waits of one read stay
   * within this; a longer wait fails the read at once as `unavailable` (a sync job is retried later anyway). Default 30 s.
   */
  rateLimitWaitMs?: number;
  resolve?: Resolver;
}

const MAX_ANSWER_BYTES = 256 * 1024;
/** A product read for a push: up to 2,048 variants and their attributes. */
const MAX_PRODUCT_BYTES = 16 * 1024 * 1024;

/** Reading a product from the PIM failed; `kind` says why (its message is the push result's message). */
export class PimReadError extends Error {
  override name = 'PimReadError';
  constructor(
    readonly kind: 'not_found' | 'unauthorized' | 'unavailable',
    message: string,
  ) {
    super(message);
  }
}

/** Requests to PIMs: keep-alive connections, the address rule, timeouts, answer caps and rate limits. */
export class PimHttp {
  private readonly timeoutMs: number;
  private readonly rateLimitWaitMs: number;
  private readonly ownOrigin: string;
  /** Keep-alive connections: to our own PIM (any address), and to the others (the address rule checked per connection). */
  private readonly ownAgents: Agents;
  private readonly agents: Agents;

  constructor(options: PimHttpOptions) {
    this.timeoutMs = options.timeoutMs ?? 5_000;
    this.rateLimitWaitMs = options.rateLimitWaitMs ?? 30_000;
    this.ownOrigin = new URL(options.publicUrl).origin;
    const policy = options.allowPrivateNetworks ? anyAddress : publicAddressesOnly;
    const resolve = options.resolve ?? systemResolver;
    this.ownAgents = checkedAgents(anyAddress, filteredLookup(anyAddress, resolve));
    this.agents = checkedAgents(policy, filteredLookup(policy, resolve));
  }

  /**
   * One GET of the PIM core API → its `data`. A 404 is null when `optional`, else `not_found` with the `notFound` text
   * (`unavailable` without one: a list route the PIM does not have). A 429 is waited out within rateLimitWaitMs.
   */
  async read(raw: string, apiKey: string, options: { notFound?: string; optional?: boolean }): Promise<unknown> {
    const url = new URL(raw);
    const what = `GET ${url.pathname}`;
    let answer: { status: number; body: Buffer; retryAfter: string | undefined };
    let waited = 0;
    for (;;) {
      try {
        answer = await this.get(url, { 'x-api-key': apiKey, accept: 'application/json' }, MAX_PRODUCT_BYTES);
      } catch (err) {
        if (err instanceof AddressRefusedError) throw new PimReadError('unavailable', refusedMessage(err));
        throw new PimReadError('unavailable', `The PIM at ${url.host} could not be reached: ${networkFailure(err, url)}`);
      }
      if (answer.status !== 429) break;
      const wait = retryAfterMs(answer.retryAfter);
      if (waited + wait > this.rateLimitWaitMs) {
        throw new PimReadError('unavailable', `The PIM at ${url.host} rate-limited ${what} (HTTP 429, retry after ${Math.ceil(wait / 1000)} s)`);
      }
      waited += wait;
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
    if (answer.status === 404) {
      if (options.optional) return null;
      if (options.notFound) throw new PimReadError('not_found', options.notFound);
      throw new PimReadError('unavailable', `The PIM at ${url.host} answered HTTP 404 to ${what}`);
    }
    if (answer.status === 401 || answer.status === 403) throw new PimReadError('unauthorized', "the PIM refused the integration's credentials");
    if (answer.status !== 200) throw new PimReadError('unavailable', `The PIM at ${url.host} answered HTTP ${answer.status} to ${what}`);
    let payload: { status?: unknown; data?: unknown };
    try {
      payload = JSON.parse(answer.body.toString('utf8')) as typeof payload;
    } catch {
      throw new PimReadError('unavailable', `The PIM at ${url.host} did not answer JSON to ${what}`);
    }
    if (!payload || typeof payload !== 'object' || (payload.status !== 1 && payload.status !== true) || !payload.data || typeof payload.data !== 'object') {
      throw new PimReadError('unavailable', `The PIM at ${url.host} did not answer a PIM envelope to ${what}`);
    }
    return payload.data;
  }

  /** One request with a body (rate limits waited out as reads wait them); the answer whole. */
  async send(url: URL, method: 'POST', apiKey: string, headers: Record<string, string>, body: Buffer): Promise<{ status: number; body: Buffer }> {
    const agents = url.origin === this.ownOrigin ? this.ownAgents : this.agents;
    let waited = 0;
    for (;;) {
      const signal = AbortSignal.timeout(Math.max(this.timeoutMs, 60_000));
      let answer: { status: number; body: Buffer; retryAfter: string | undefined };
      try {
        answer = await new Promise((resolve, reject) => {
          const req = (url.protocol === 'https:' ? https : http).request(url, {
            method,
            headers: {
              ...headers,
              'x-api-key': apiKey,
              accept: 'application/json',
              'accept-encoding': 'identity',
              'user-agent': 'Pimbridge-connector/0.1',
              'content-length': String(body.length),
            },
            agent: agentFor(agents, url),
            signal,
          });
          req.once('error', reject);
          req.once('response', (res) => {
            const chunks: Buffer[] = [];
            let size = 0;
            res.on('data', (chunk: Buffer) => {
              size += chunk.length;
              if (size <= MAX_ANSWER_BYTES) chunks.push(chunk);
            });
            res.once('error', reject);
            res.once('end', () => {
              const retryAfter = res.headers['retry-after'];
              resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks), retryAfter: retryAfter === undefined ? undefined : String(retryAfter) });
            });
          });
          req.end(body);
        });
      } catch (err) {
        if (err instanceof AddressRefusedError) throw new PimReadError('unavailable', refusedMessage(err));
        throw new PimReadError('unavailable', `The PIM at ${url.host} could not be reached: ${networkFailure(err, url)}`);
      }
      if (answer.status !== 429) return answer;
      const wait = retryAfterMs(answer.retryAfter);
      if (waited + wait > this.rateLimitWaitMs)
        throw new PimReadError(
          'unavailable',
          `The PIM at ${url.host} rate-limited ${method} ${url.pathname} (HTTP 429, retry after ${Math.ceil(wait / 1000)} s)`,
        );
      waited += wait;
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }

  /** A PIM answer with a body → its `data`; a refusal is a PimReadError with the PIM's own message. */
  envelope(url: URL, method: string, answer: { status: number; body: Buffer }, options: { accepted: number[] }): unknown {
    const what = `${method} ${url.pathname}`;
    const payload = parseJson(answer.body) as { status?: unknown; data?: unknown; error?: unknown } | null;
    if (answer.status === 401 || answer.status === 403) throw new PimReadError('unauthorized', "the PIM refused the integration's credentials");
    if (!options.accepted.includes(answer.status)) {
      const reason = payload && typeof payload.error === 'string' ? `: ${payload.error}` : '';
      throw new PimReadError('unavailable', `The PIM at ${url.host} answered HTTP ${answer.status} to ${what}${reason}`);
    }
    if (!payload || typeof payload !== 'object' || (payload.status !== 1 && payload.status !== true) || !payload.data || typeof payload.data !== 'object') {
      throw new PimReadError('unavailable', `The PIM at ${url.host} did not answer a PIM envelope to ${what}`);
    }
    return payload.data;
  }

  /** One GET, no redirects followed, the answer capped (256 KB by default), all within timeoutMs (the client's by default). */
  async get(
    url: URL,
    headers: Record<string, string>,
    maxBytes = MAX_ANSWER_BYTES,
    timeoutMs = this.timeoutMs,
  ): Promise<{ status: number; body: Buffer; contentType: string; retryAfter: string | undefined }> {
    const agents = url.origin === this.ownOrigin ? this.ownAgents : this.agents;
    const deadline = new AbortController();
    const timeout = new DownloadError(`timed out after ${timeoutMs / 1000} s`);
    const timer = setTimeout(() => deadline.abort(timeout), timeoutMs);
    const signal = deadline.signal;
    try {
      const res = await keepAliveGet(url, agents, { ...headers, 'accept-encoding': 'identity', 'user-agent': 'Pimbridge-connector/0.1' }, signal);
      const body = await new Promise<Buffer>((resolve, reject) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBytes) {
            res.destroy();
            reject(new DownloadError(`the answer was larger than ${Math.round(maxBytes / 1024)} KB`));
          } else chunks.push(chunk);
        });
        res.once('end', () => resolve(Buffer.concat(chunks)));
        res.once('error', reject);
        res.once('close', () => {
          if (!res.complete) reject(signal.aborted ? signal.reason : new DownloadError('the connection was closed before the answer arrived'));
        });
      });
      const retryAfter = res.headers['retry-after'];
      return {
        status: res.statusCode ?? 0,
        body,
        contentType: String(res.headers['content-type'] ?? ''),
        retryAfter: retryAfter === undefined ? undefined : String(retryAfter),
      };
    } catch (err) {
      throw signal.aborted ? timeout : err;
    } finally {
      clearTimeout(timer);
    }
  }
}

function parseJson(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    return null;
  }
}

/** Retry-After (seconds or an HTTP date) → ms; 1 s when absent or unreadable. */
function retryAfterMs(value: string | undefined): number {
  if (value === undefined) return 1_000;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1_000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? 1_000 : Math.max(0, at - Date.now());
}

/**
 * A pim_base_url the address rule refused: the rule and the range (`loopback`, `private network`, `link-local`…) and the
 * setting that allows it; not the address its host name resolved to, nor anything about what listens there.
 */
export function refusedMessage(err: AddressRefusedError): string {
  const where = err.via === 'address' ? 'is' : 'resolves to';
  return `pim_base_url ${where} a private address (${err.range}); set CONNECTOR_ALLOW_PRIVATE_NETWORKS=true to allow private networks`;
}

/** Why a request got no answer, in words for the caller (never the address a host name resolved to). */
export function networkFailure(err: unknown, url: URL): string {
  if (err instanceof DownloadError) return err.message;
  const code = (err as NodeJS.ErrnoException)?.code ?? '';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `host ${url.hostname} could not be resolved`;
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code === 'ECONNRESET' || (err as Error)?.message === 'socket hang up') return 'the connection was closed before the answer arrived';
  if (code.startsWith('HPE_')) return 'the server did not answer valid HTTP';
  if (/CERT|TLS|SSL/i.test(code)) return `the TLS connection failed (${code})`;
  return code ? `network error (${code})` : 'network error';
}

// The connector's HTTP client of a PIM (spec/pim-core-api.md): the live credential check behind connect and update
// (GET {pim_base_url}/api/auth/verify with X-API-KEY and X-API-SECRET), and the product reads of a push. pim_base_url comes from an
// unauthenticated caller, so every call goes through the address policy with the connection-level check of
// lib/safe-download.ts (IP literal, every DNS answer, and the socket actually connected, before a byte is sent):
// private and loopback ranges are refused unless CONNECTOR_ALLOW_PRIVATE_NETWORKS, except this server's own
// PUBLIC_URL origin, which is always allowed (connecting a shop to this same PIM works out of the box).
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import net from 'node:net';
import tls from 'node:tls';
import { anyAddress, publicAddressesOnly, type AddressPolicy } from '../../lib/address-policy.js';
import { connectChecked, DownloadError, filteredLookup, systemResolver, type Resolver } from '../../lib/safe-download.js';
import type { PimProductSnapshot } from '../../storefront/storefront.port.js';

/** The outcome of a credential check, as a value: callers map it to their own error codes. */
export type VerifyResult =
  | { ok: true; organizationId: number | null }
  /** 401/403 from the PIM: the key or the secret is wrong (or the PIM account is inactive). */
  | { ok: false; reason: 'invalid_credentials'; message: string }
  /** The URL or its address was refused before any request was sent (the caller's input is at fault). */
  | { ok: false; reason: 'refused'; message: string }
  /** Unreachable, timed out, 5xx, or not a PIM's answer. */
  | { ok: false; reason: 'unavailable'; message: string };

export interface PimClientOptions {
  /** Loopback and private ranges allowed (CONNECTOR_ALLOW_PRIVATE_NETWORKS). */
  allowPrivateNetworks: boolean;
  /** This server's PUBLIC_URL: its origin is always allowed. */
  publicUrl: string;
  /** Per call, connection and answer included; default 5 s. */
  timeoutMs?: number;
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

export class PimUrlError extends Error {
  override name = 'PimUrlError';
}

/**
 * Checks and normalises a pim_base_url: an http(s) URL without credentials, query or fragment; returned without a
 * trailing slash. Throws PimUrlError naming the rule.
 */
export function normalisePimBaseUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new PimUrlError('pim_base_url must be an absolute http(s) URL, e.g. https://pim.example.com');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new PimUrlError(`pim_base_url must use http or https, got ${url.protocol.replace(/:$/, '')}`);
  if (url.username || url.password) throw new PimUrlError('pim_base_url must not carry credentials (user:password@)');
  if (url.search || url.hash || raw.includes('?') || raw.includes('#')) throw new PimUrlError('pim_base_url must not carry a query or fragment');
  if (raw.length > 2048) throw new PimUrlError('pim_base_url must be at most 2048 characters');
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
}

export class PimClient {
  /** Public so tests can lower it; 5 s in production. */
  timeoutMs: number;
  private readonly ownOrigin: string;
  private readonly policy: AddressPolicy;
  private readonly resolve: Resolver;

  constructor(options: PimClientOptions) {
    this.timeoutMs = options.timeoutMs ?? 5_000;
    this.ownOrigin = new URL(options.publicUrl).origin;
    this.policy = options.allowPrivateNetworks ? anyAddress : publicAddressesOnly;
    this.resolve = options.resolve ?? systemResolver;
  }

  /** GET {baseUrl}/api/auth/verify with the pair; never throws. `baseUrl` must come from normalisePimBaseUrl. */
  async verifyCredentials(baseUrl: string, apiKey: string, apiSecret: string): Promise<VerifyResult> {
    const url = new URL(`${baseUrl}/api/auth/verify`);
    const where = url.host;
    let answer: { status: number; body: Buffer; contentType: string };
    try {
      answer = await this.get(url, { 'x-api-key': apiKey, 'x-api-secret': apiSecret, accept: 'application/json' });
    } catch (err) {
      if (err instanceof DownloadError && /is not a public address/.test(err.message)) {
        return { ok: false, reason: 'refused', message: `pim_base_url is not allowed: ${err.message} (set CONNECTOR_ALLOW_PRIVATE_NETWORKS=true to allow private networks)` };
      }
      return { ok: false, reason: 'unavailable', message: `The PIM at ${where} could not be reached: ${describe(err, url)}` };
    }
    const { status } = answer;
    if (status === 401 || status === 403) {
      return { ok: false, reason: 'invalid_credentials', message: 'The PIM refused the API key or secret' };
    }
    if (status !== 200) {
      return { ok: false, reason: 'unavailable', message: `The PIM at ${where} answered HTTP ${status} to the credential check` };
    }
    let payload: { status?: unknown; data?: { organization?: { id?: unknown } } };
    try {
      payload = JSON.parse(answer.body.toString('utf8')) as typeof payload;
    } catch {
      return { ok: false, reason: 'unavailable', message: `The PIM at ${where} did not answer JSON: is pim_base_url the PIM's base URL?` };
    }
    if (!payload || typeof payload !== 'object' || (payload.status !== 1 && payload.status !== true)) {
      return { ok: false, reason: 'unavailable', message: `The PIM at ${where} did not answer a PIM envelope: is pim_base_url the PIM's base URL?` };
    }
    const id = payload.data?.organization?.id;
    return { ok: true, organizationId: typeof id === 'number' ? id : null };
  }

  /**
   * A product as a push sends it: GET {baseUrl}/api/products/{id}, …/variants and …/stock (warehouse levels; a PIM
   * without that route, or answering it 404, gives no warehouse_stock) with X-API-KEY, over HTTP even when the PIM is
   * this same server. Throws PimReadError: `not_found` (the product), `unauthorized` (401/403), `unavailable`.
   */
  async productSnapshot(conn: { baseUrl: string; apiKey: string }, id: number): Promise<PimProductSnapshot> {
    const base = `${conn.baseUrl}/api/products/${id}`;
    const [product, variants, stock] = await Promise.all([
      this.readPim(`${base}`, conn.apiKey, id),
      this.readPim(`${base}/variants`, conn.apiKey, id),
      this.readPim(`${base}/stock`, conn.apiKey, id, true),
    ]);
    const p = product as Record<string, unknown>;
    if (!p || typeof p !== 'object' || typeof p.name !== 'string') throw new PimReadError('unavailable', `The PIM answered GET /api/products/${id} without a product`);
    const list = (variants as { variants?: unknown } | null)?.variants;
    if (!Array.isArray(list)) throw new PimReadError('unavailable', `The PIM answered GET /api/products/${id}/variants without a variant list`);
    const levels = (stock as { warehouse_stock?: unknown } | null)?.warehouse_stock;
    const snapshot = { ...p, id, sku: typeof p.sku === 'string' ? p.sku : '', variants: list } as PimProductSnapshot;
    if (Array.isArray(levels)) snapshot.warehouse_stock = levels as PimProductSnapshot['warehouse_stock'];
    else delete snapshot.warehouse_stock;
    return snapshot;
  }

  /** One GET of the PIM core API → its `data`; `optional` turns a 404 into null. */
  private async readPim(raw: string, apiKey: string, id: number, optional = false): Promise<unknown> {
    const url = new URL(raw);
    const what = `GET ${url.pathname}`;
    let answer: { status: number; body: Buffer };
    try {
      answer = await this.get(url, { 'x-api-key': apiKey, accept: 'application/json' }, MAX_PRODUCT_BYTES);
    } catch (err) {
      if (err instanceof DownloadError && /is not a public address/.test(err.message)) {
        throw new PimReadError('unavailable', `The PIM at ${url.host} is not allowed: ${err.message}`);
      }
      throw new PimReadError('unavailable', `The PIM at ${url.host} could not be reached: ${describe(err, url)}`);
    }
    if (answer.status === 404) {
      if (optional) return null;
      throw new PimReadError('not_found', `PIM product ${id} not found`);
    }
    if (answer.status === 401 || answer.status === 403) throw new PimReadError('unauthorized', "the PIM refused the integration's credentials");
    if (answer.status === 429) throw new PimReadError('unavailable', `The PIM at ${url.host} rate-limited ${what} (HTTP 429)`);
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

  /** One GET, no redirects followed, the answer capped (256 KB by default), all within timeoutMs. */
  private async get(url: URL, headers: Record<string, string>, maxBytes = MAX_ANSWER_BYTES): Promise<{ status: number; body: Buffer; contentType: string }> {
    const policy = url.origin === this.ownOrigin ? anyAddress : this.policy;
    const lookup = filteredLookup(policy, this.resolve);
    const deadline = new AbortController();
    const timeout = new DownloadError(`timed out after ${this.timeoutMs / 1000} s`);
    const timer = setTimeout(() => deadline.abort(timeout), this.timeoutMs);
    const signal = deadline.signal;
    const secure = url.protocol === 'https:';
    const port = Number(url.port) || (secure ? 443 : 80);
    const hostname = url.hostname.replace(/^\[(.*)\]$/, '$1');
    try {
      const res = await new Promise<IncomingMessage>((resolve, reject) => {
        const createConnection = (_options: unknown, oncreate: (err: Error | null, socket?: net.Socket) => void) => {
          connectChecked({ host: hostname, port, policy, lookup, signal }).then(
            (socket) => {
              if (!secure) return oncreate(null, socket);
              const servername = net.isIP(hostname) ? undefined : hostname;
              oncreate(null, tls.connect({ socket, host: hostname, servername, ALPNProtocols: ['http/1.1'] }));
            },
            (err: Error) => oncreate(err),
          );
          return undefined;
        };
        const req = (secure ? https : http).request(url, {
          method: 'GET',
          headers: { ...headers, 'accept-encoding': 'identity', 'user-agent': 'Pimbridge-connector/0.1' },
          createConnection: createConnection as never,
          signal,
        });
        req.once('response', resolve);
        req.on('error', reject);
        req.end();
      });
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
      return { status: res.statusCode ?? 0, body, contentType: String(res.headers['content-type'] ?? '') };
    } catch (err) {
      throw signal.aborted ? timeout : err;
    } finally {
      clearTimeout(timer);
    }
  }
}

function describe(err: unknown, url: URL): string {
  if (err instanceof DownloadError) return err.message;
  const code = (err as NodeJS.ErrnoException)?.code ?? '';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `host ${url.hostname} could not be resolved`;
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code === 'ECONNRESET' || (err as Error)?.message === 'socket hang up') return 'the connection was closed before the answer arrived';
  if (code.startsWith('HPE_')) return 'the server did not answer valid HTTP';
  if (/CERT|TLS|SSL/i.test(code)) return `the TLS connection failed (${code})`;
  return code ? `network error (${code})` : 'network error';
}

// The connector's HTTP client of a PIM (spec/pim-core-api.md): the live credential check behind connect and update
// (GET {pim_base_url}/api/auth/verify with X-API-KEY and X-API-SECRET), and the product reads of a push. pim_base_url comes from an
// unauthenticated caller, so every call goes through the address policy with the connection-level check of
// lib/safe-download.ts (IP literal, every DNS answer, and the socket actually connected, before a byte is sent):
// private and loopback ranges are refused unless CONNECTOR_ALLOW_PRIVATE_NETWORKS, except this server's own
// PUBLIC_URL origin, which is always allowed (connecting a shop to this same PIM works out of the box).
import { anyAddress, publicAddressesOnly } from '../../lib/address-policy.js';
import http from 'node:http';
import https from 'node:https';
import { agentFor, keepAliveGet, type Agents } from '../../lib/keep-alive.js';
import { AddressRefusedError, checkedAgents, DownloadError, filteredLookup, systemResolver, type Resolver } from '../../lib/safe-download.js';
import { mapLimit } from '../../lib/map-limit.js';
import type { PimProductSnapshot } from '../../storefront/port/pim-product.js';
import type { PimAttributeDefinition } from '../integrations/integration-settings.js';

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

/** A product in the PIM's change list: what the delta sync needs to decide and to move its cursor. */
export interface PimChange {
  id: number;
  /** ISO 8601 with milliseconds, as the PIM shows it. */
  updated_at: string;
  status: string;
}

/**
 * The reads of a sync ask the PIM for the product with its variants, levels and translations in one answer (include,
 * beyond the spec). A PIM that leaves `translations` out gives a snapshot without them: its translations are left as
 * they are in the shop (translation-sync.ts), never removed.
 */
const INCLUDE = 'include=variants,warehouse_stock,translations';

/** A catalogue import of the PIM (POST /api/imports, GET /api/imports/{id}; beyond the spec, Pimbridge's PIM has it). */
export interface PimImport {
  id: string;
  state: 'queued' | 'running' | 'completed' | 'failed';
  rows_total: number;
  rows_done: number;
  created: number;
  updated: number;
  unchanged: number;
  failed: number;
  error: string | null;
}

/** The largest catalogue file the connector sends in one import. */
const MAX_IMPORT_BYTES = 64 * 1024 * 1024;
/** The most products per page the PIM answers (spec: limit 1-100). */
export const PIM_PAGE_LIMIT = 100;

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
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new PimUrlError(`pim_base_url must use http or https, got ${url.protocol.replace(/:$/, '')}`);
  if (url.username || url.password) throw new PimUrlError('pim_base_url must not carry credentials (user:password@)');
  if (url.search || url.hash || raw.includes('?') || raw.includes('#')) throw new PimUrlError('pim_base_url must not carry a query or fragment');
  if (raw.length > 2048) throw new PimUrlError('pim_base_url must be at most 2048 characters');
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
}

export class PimClient {
  private readonly timeoutMs: number;
  private readonly rateLimitWaitMs: number;
  private readonly ownOrigin: string;
  /** Keep-alive connections: to our own PIM (any address), and to the others (the address rule checked per connection). */
  private readonly ownAgents: Agents;
  private readonly agents: Agents;

  constructor(options: PimClientOptions) {
    this.timeoutMs = options.timeoutMs ?? 5_000;
    this.rateLimitWaitMs = options.rateLimitWaitMs ?? 30_000;
    this.ownOrigin = new URL(options.publicUrl).origin;
    const policy = options.allowPrivateNetworks ? anyAddress : publicAddressesOnly;
    const resolve = options.resolve ?? systemResolver;
    this.ownAgents = checkedAgents(anyAddress, filteredLookup(anyAddress, resolve));
    this.agents = checkedAgents(policy, filteredLookup(policy, resolve));
  }

  /** GET {baseUrl}/api/auth/verify with the pair; never throws. `baseUrl` must come from normalisePimBaseUrl. */
  /** `timeoutMs`: this call's bound, when it differs from the client's (the status checks wait 3 s). */
  async verifyCredentials(baseUrl: string, apiKey: string, apiSecret: string, options: { timeoutMs?: number } = {}): Promise<VerifyResult> {
    const url = new URL(`${baseUrl}/api/auth/verify`);
    const where = url.host;
    let answer: { status: number; body: Buffer; contentType: string };
    try {
      answer = await this.get(url, { 'x-api-key': apiKey, 'x-api-secret': apiSecret, accept: 'application/json' }, undefined, options.timeoutMs);
    } catch (err) {
      // The rule that refused it, never what answered: nothing was sent to a refused address.
      if (err instanceof AddressRefusedError) return { ok: false, reason: 'refused', message: refusedMessage(err) };
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
   * A product as a push sends it, over HTTP even when the PIM is this same server: GET {baseUrl}/api/products/{id} with
   * `include=variants,warehouse_stock,translations` (one read); a PIM that ignores `include` (no `variants` in the answer) is read
   * the spec's way, adding GET …/variants and …/stock (warehouse levels; a PIM without that route, or answering it 404,
   * gives no warehouse_stock). Throws PimReadError: `not_found` (the product), `unauthorized` (401/403), `unavailable`.
   */
  async productSnapshot(conn: { baseUrl: string; apiKey: string }, id: number): Promise<PimProductSnapshot> {
    const product = await this.readPim(`${conn.baseUrl}/api/products/${id}?${INCLUDE}`, conn.apiKey, { notFound: `PIM product ${id} not found` });
    const p = product as Record<string, unknown>;
    if (!p || typeof p !== 'object' || typeof p.name !== 'string')
      throw new PimReadError('unavailable', `The PIM answered GET /api/products/${id} without a product`);
    return this.completeSnapshot(conn, { ...p, id });
  }

  /**
   * The products of `ids` in one read per 100 (`ids` on the list, beyond the spec; Pimbridge's PIM has it), whole. A
   * product the answer lacks is not in the map: the caller reads it alone, which tells a deleted product (404) from a
   * PIM that does not filter by ids (its answer's other products are ignored).
   */
  async productSnapshots(conn: { baseUrl: string; apiKey: string }, ids: number[]): Promise<Map<number, PimProductSnapshot>> {
    const wanted = new Set(ids);
    const found = new Map<number, PimProductSnapshot>();
    const unique = [...wanted];
    for (let i = 0; i < unique.length; i += PIM_PAGE_LIMIT) {
      const chunk = unique.slice(i, i + PIM_PAGE_LIMIT);
      const { products } = await this.readList(`${conn.baseUrl}/api/products?ids=${chunk.join(',')}&after_id=0&limit=${chunk.length}&${INCLUDE}`, conn.apiKey);
      const ours = products.filter((p) => wanted.has(p.id as number) && typeof p.name === 'string');
      for (const snapshot of await mapLimit(ours, 4, (p) => this.completeSnapshot(conn, { ...p, id: p.id as number }))) found.set(snapshot.id, snapshot);
    }
    return found;
  }

  /**
   * One page of the PIM account's products by id (keyset: `after_id`, beyond the spec), whole (variants and levels
   * included), and `total`: the products after `afterId`, this page's included. A PIM that ignores `after_id` answers
   * products at or before the cursor: refused as `unavailable` rather than paged forever.
   */
  async productPage(
    conn: { baseUrl: string; apiKey: string },
    page: { afterId: number; limit: number; include?: 'variants' },
  ): Promise<{ products: PimProductSnapshot[]; total: number }> {
    const limit = Math.min(Math.max(1, page.limit), PIM_PAGE_LIMIT);
    // `include: 'variants'`: the products with their variants only (no warehouse levels), e.g. to match them by SKU.
    const url = `${conn.baseUrl}/api/products?after_id=${page.afterId}&limit=${limit}&${page.include ? `include=${page.include}` : INCLUDE}`;
    const { products, total } = await this.readList(url, conn.apiKey);
    let last = page.afterId;
    for (const p of products) {
      if (!Number.isInteger(p.id) || (p.id as number) <= last || typeof p.name !== 'string') throw keysetUnsupported(url, 'after_id');
      last = p.id as number;
    }
    const snapshots = await mapLimit(products, 4, (p) => this.completeSnapshot(conn, { ...p, id: p.id as number }));
    return { products: snapshots, total };
  }

  /**
   * The products changed at or after `since` and after (`since`, `afterId`) in the PIM's (updated_at, id) order, at most
   * `limit` (≤ 100), with what a delta poll needs of each. A PIM that does not keep that order (no `after_id`) is
   * refused as `unavailable`: paging it by offset while it changes would skip products.
   */
  async changedProducts(conn: { baseUrl: string; apiKey: string }, cursor: { since: string; afterId: number; limit: number }): Promise<PimChange[]> {
    const limit = Math.min(Math.max(1, cursor.limit), PIM_PAGE_LIMIT);
    const url = `${conn.baseUrl}/api/products?updated_since=${encodeURIComponent(cursor.since)}&after_id=${cursor.afterId}&limit=${limit}`;
    const { products } = await this.readList(url, conn.apiKey);
    let lastAt = Date.parse(cursor.since);
    let lastId = cursor.afterId;
    return products.map((p) => {
      const at = typeof p.updated_at === 'string' ? Date.parse(p.updated_at) : NaN;
      if (!Number.isInteger(p.id) || Number.isNaN(at) || at < lastAt || (at === lastAt && (p.id as number) <= lastId))
        throw keysetUnsupported(url, 'updated_since with after_id');
      lastAt = at;
      lastId = p.id as number;
      return { id: p.id as number, updated_at: new Date(at).toISOString(), status: typeof p.status === 'string' ? p.status : '' };
    });
  }

  /**
   * Starts a catalogue import: `POST {baseUrl}/api/imports?format=…` with the file as multipart/form-data (field
   * `file`); the PIM answers 202 with the import. Throws PimReadError: `unauthorized`, `unavailable` (unreachable, 5xx,
   * a PIM without imports), or `not_found` never; a refused file (400) is `unavailable` with the PIM's message.
   */
  async startImport(conn: { baseUrl: string; apiKey: string }, file: { format: 'ours' | 'shopify'; filename: string; content: Buffer }): Promise<PimImport> {
    if (file.content.length > MAX_IMPORT_BYTES)
      throw new PimReadError('unavailable', `the catalogue file is ${file.content.length} bytes, over ${MAX_IMPORT_BYTES}`);
    const url = new URL(`${conn.baseUrl}/api/imports?format=${file.format}`);
    const boundary = `----pimbridge${Math.random().toString(16).slice(2)}${Date.now().toString(16)}`;
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.filename.replace(/["\r\n]/g, '_')}"\r\nContent-Type: text/csv\r\n\r\n`;
    const body = Buffer.concat([Buffer.from(head), file.content, Buffer.from(`\r\n--${boundary}--\r\n`)]);
    const answer = await this.send(url, 'POST', conn.apiKey, { 'content-type': `multipart/form-data; boundary=${boundary}` }, body);
    return importOf(this.envelope(url, 'POST', answer, { accepted: [202, 201, 200] }));
  }

  /** One import of the PIM: GET {baseUrl}/api/imports/{id}. */
  async importState(conn: { baseUrl: string; apiKey: string }, id: string): Promise<PimImport> {
    const data = await this.readPim(`${conn.baseUrl}/api/imports/${encodeURIComponent(id)}`, conn.apiKey, { notFound: `PIM import ${id} not found` });
    return importOf(data);
  }

  /** One request with a body (rate limits waited out as reads wait them); the answer whole. */
  private async send(url: URL, method: 'POST', apiKey: string, headers: Record<string, string>, body: Buffer): Promise<{ status: number; body: Buffer }> {
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
        throw new PimReadError('unavailable', `The PIM at ${url.host} could not be reached: ${describe(err, url)}`);
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
  private envelope(url: URL, method: string, answer: { status: number; body: Buffer }, options: { accepted: number[] }): unknown {
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

  /**
   * A product read with `include` → the push's snapshot; the variants and levels read apart when the PIM left them out.
   * Every field the PIM answers is carried as it is (PimProductSnapshot: the spec's, and beyond it the storefront fields
   * `tags`, `seo_title`, `seo_description`, `gift_card`, `taxonomy_category`, `weight`, `image_alts` and the selling fields
   * of the product and its variants); the mapper reads each defensively, so a PIM that lacks one leaves the shop's value.
   */
  private async completeSnapshot(conn: { baseUrl: string; apiKey: string }, p: Record<string, unknown> & { id: number }): Promise<PimProductSnapshot> {
    const { id } = p;
    let variants = p.variants;
    let levels = p.warehouse_stock;
    if (!Array.isArray(variants)) {
      const base = `${conn.baseUrl}/api/products/${id}`;
      const [list, stock] = await Promise.all([
        this.readPim(`${base}/variants`, conn.apiKey, { notFound: `PIM product ${id} not found` }),
        this.readPim(`${base}/stock`, conn.apiKey, { optional: true }),
      ]);
      variants = (list as { variants?: unknown } | null)?.variants;
      if (!Array.isArray(variants)) throw new PimReadError('unavailable', `The PIM answered GET /api/products/${id}/variants without a variant list`);
      levels = (stock as { warehouse_stock?: unknown } | null)?.warehouse_stock;
    }
    const snapshot = { ...p, id, sku: typeof p.sku === 'string' ? p.sku : '', variants } as PimProductSnapshot;
    if (Array.isArray(levels)) snapshot.warehouse_stock = levels as PimProductSnapshot['warehouse_stock'];
    else delete snapshot.warehouse_stock;
    if (typeof snapshot.updated_at !== 'string') delete snapshot.updated_at;
    return snapshot;
  }

  /**
   * The PIM account's product attribute definitions (GET {baseUrl}/api/product-attributes; the spec does not show its
   * record, Pimbridge's PIM answers {attributes: [{code, name, type, options, metafield}]}): what a push writes as
   * metafields. A PIM without the route (404) has none: [].
   */
  async attributeDefinitions(conn: { baseUrl: string; apiKey: string }): Promise<PimAttributeDefinition[]> {
    const data = (await this.readPim(`${conn.baseUrl}/api/product-attributes`, conn.apiKey, { optional: true })) as { attributes?: unknown } | null;
    const list = Array.isArray(data?.attributes) ? (data.attributes as Record<string, unknown>[]) : [];
    return list.flatMap((a) =>
      a && typeof a.code === 'string' && typeof a.type === 'string'
        ? [
            {
              code: a.code,
              name: typeof a.name === 'string' && a.name ? a.name : a.code,
              type: a.type,
              options: Array.isArray(a.options) ? a.options.filter((o): o is string => typeof o === 'string') : [],
              metafield: typeof a.metafield === 'string' ? a.metafield : null,
            },
          ]
        : [],
    );
  }

  /**
   * The account's categories, all of them in one GET /api/categories: their ids, names and, where the PIM says it
   * (`product_count`, beyond the spec), how many products they hold. Throws PimReadError.
   */
  async categories(conn: { baseUrl: string; apiKey: string }): Promise<{ id: number; name: string; productCount?: number }[]> {
    const data = (await this.readPim(`${conn.baseUrl}/api/categories`, conn.apiKey, {})) as { categories?: unknown } | null;
    if (!Array.isArray(data?.categories)) throw new PimReadError('unavailable', 'The PIM answered GET /api/categories without a category list');
    return (data.categories as Record<string, unknown>[]).flatMap((c) =>
      c && Number.isInteger(c.id) && typeof c.name === 'string'
        ? [{ id: c.id as number, name: c.name, ...(Number.isInteger(c.product_count) ? { productCount: c.product_count as number } : {}) }]
        : [],
    );
  }

  /** GET of a product list → its products (objects) and pagination.total_items. */
  private async readList(url: string, apiKey: string): Promise<{ products: Record<string, unknown>[]; total: number }> {
    const data = (await this.readPim(url, apiKey, {})) as { products?: unknown; pagination?: { total_items?: unknown } };
    const products = data.products;
    if (!Array.isArray(products) || products.some((p) => !p || typeof p !== 'object')) {
      throw new PimReadError('unavailable', `The PIM answered GET ${new URL(url).pathname} without a product list`);
    }
    const total = data.pagination?.total_items;
    return { products: products as Record<string, unknown>[], total: Number.isInteger(total) ? (total as number) : products.length };
  }

  /**
   * One GET of the PIM core API → its `data`. A 404 is null when `optional`, else `not_found` with the `notFound` text
   * (`unavailable` without one: a list route the PIM does not have). A 429 is waited out within rateLimitWaitMs.
   */
  private async readPim(raw: string, apiKey: string, options: { notFound?: string; optional?: boolean }): Promise<unknown> {
    const url = new URL(raw);
    const what = `GET ${url.pathname}`;
    let answer: { status: number; body: Buffer; retryAfter: string | undefined };
    let waited = 0;
    for (;;) {
      try {
        answer = await this.get(url, { 'x-api-key': apiKey, accept: 'application/json' }, MAX_PRODUCT_BYTES);
      } catch (err) {
        if (err instanceof AddressRefusedError) throw new PimReadError('unavailable', refusedMessage(err));
        throw new PimReadError('unavailable', `The PIM at ${url.host} could not be reached: ${describe(err, url)}`);
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

  /** One GET, no redirects followed, the answer capped (256 KB by default), all within timeoutMs (the client's by default). */
  private async get(
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

/** An import as the PIM answers it (ImportView) → PimImport; unavailable when it is not one. */
function importOf(data: unknown): PimImport {
  const d = data as Partial<Record<keyof PimImport, unknown>> | null;
  const states = ['queued', 'running', 'completed', 'failed'];
  if (!d || typeof d.id !== 'string' || typeof d.state !== 'string' || !states.includes(d.state))
    throw new PimReadError('unavailable', 'The PIM did not answer an import');
  const n = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
  return {
    id: d.id,
    state: d.state as PimImport['state'],
    rows_total: n(d.rows_total),
    rows_done: n(d.rows_done),
    created: n(d.created),
    updated: n(d.updated),
    unchanged: n(d.unchanged),
    failed: n(d.failed),
    error: typeof d.error === 'string' ? d.error : null,
  };
}

/** Retry-After (seconds or an HTTP date) → ms; 1 s when absent or unreadable. */
function retryAfterMs(value: string | undefined): number {
  if (value === undefined) return 1_000;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1_000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? 1_000 : Math.max(0, at - Date.now());
}

const keysetUnsupported = (url: string, what: string) =>
  new PimReadError(
    'unavailable',
    `The PIM at ${new URL(url).host} does not page by ${what} (beyond the spec; Pimbridge's PIM does): its list came back out of order`,
  );

/**
 * A pim_base_url the address rule refused: the rule and the range (`loopback`, `private network`, `link-local`…) and the
 * setting that allows it; not the address its host name resolved to, nor anything about what listens there.
 */
function refusedMessage(err: AddressRefusedError): string {
  const where = err.via === 'address' ? 'is' : 'resolves to';
  return `pim_base_url ${where} a private address (${err.range}); set CONNECTOR_ALLOW_PRIVATE_NETWORKS=true to allow private networks`;
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

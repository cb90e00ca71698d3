// The connector's HTTP client of a PIM (spec/pim-core-api.md): the live credential check behind connect and update
// (GET {pim_base_url}/api/auth/verify with X-API-KEY and X-API-SECRET), the product reads of a push and a sync, the
// attribute definitions and categories, and catalogue imports. What each call asks and how it reads the answer is
// here; the transport (the address policy, keep-alive, caps, rate limits) is pim-http.ts.
import { mapLimit } from '../../lib/map-limit.js';
import { AddressRefusedError } from '../../lib/safe-download.js';
import type { PimProductSnapshot } from '../../storefront/port/pim-product.js';
import type { PimAttributeDefinition } from '../integrations/integration-settings.js';
import { networkFailure, PimHttp, type PimHttpOptions, PimReadError, refusedMessage } from './pim-http.js';

/** The outcome of a credential check, as a value: callers map it to their own error codes. */
export type VerifyResult =
  | { ok: true; organizationId: number | null }
  /** 401/403 from the PIM: the key or the secret is wrong (or the PIM account is inactive). */
  | { ok: false; reason: 'invalid_credentials'; message: string }
  /** The URL or its address was refused before any request was sent (the caller's input is at fault). */
  | { ok: false; reason: 'refused'; message: string }
  /** Unreachable, timed out, 5xx, or not a PIM's answer. */
  | { ok: false; reason: 'unavailable'; message: string };

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
  private readonly http: PimHttp;

  constructor(options: PimHttpOptions) {
    this.http = new PimHttp(options);
  }

  /** GET {baseUrl}/api/auth/verify with the pair; never throws. `baseUrl` must come from normalisePimBaseUrl. */
  /** `timeoutMs`: this call's bound, when it differs from the client's (the status checks wait 3 s). */
  async verifyCredentials(baseUrl: string, apiKey: string, apiSecret: string, options: { timeoutMs?: number } = {}): Promise<VerifyResult> {
    const url = new URL(`${baseUrl}/api/auth/verify`);
    const where = url.host;
    let answer: { status: number; body: Buffer; contentType: string };
    try {
      answer = await this.http.get(url, { 'x-api-key': apiKey, 'x-api-secret': apiSecret, accept: 'application/json' }, undefined, options.timeoutMs);
    } catch (err) {
      // The rule that refused it, never what answered: nothing was sent to a refused address.
      if (err instanceof AddressRefusedError) return { ok: false, reason: 'refused', message: refusedMessage(err) };
      return { ok: false, reason: 'unavailable', message: `The PIM at ${where} could not be reached: ${networkFailure(err, url)}` };
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
    const product = await this.http.read(`${conn.baseUrl}/api/products/${id}?${INCLUDE}`, conn.apiKey, { notFound: `PIM product ${id} not found` });
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
    // Only the adoption imports: the PIM names the import's products' history after it (a label; the key is what it trusts).
    const source = { 'x-pimbridge-source': 'shop-adoption' };
    const answer = await this.http.send(url, 'POST', conn.apiKey, { 'content-type': `multipart/form-data; boundary=${boundary}`, ...source }, body);
    return importOf(this.http.envelope(url, 'POST', answer, { accepted: [202, 201, 200] }));
  }

  /** One import of the PIM: GET {baseUrl}/api/imports/{id}. */
  async importState(conn: { baseUrl: string; apiKey: string }, id: string): Promise<PimImport> {
    const data = await this.http.read(`${conn.baseUrl}/api/imports/${encodeURIComponent(id)}`, conn.apiKey, { notFound: `PIM import ${id} not found` });
    return importOf(data);
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
        this.http.read(`${base}/variants`, conn.apiKey, { notFound: `PIM product ${id} not found` }),
        this.http.read(`${base}/stock`, conn.apiKey, { optional: true }),
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
    const data = (await this.http.read(`${conn.baseUrl}/api/product-attributes`, conn.apiKey, { optional: true })) as { attributes?: unknown } | null;
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
    const data = (await this.http.read(`${conn.baseUrl}/api/categories`, conn.apiKey, {})) as { categories?: unknown } | null;
    if (!Array.isArray(data?.categories)) throw new PimReadError('unavailable', 'The PIM answered GET /api/categories without a category list');
    return (data.categories as Record<string, unknown>[]).flatMap((c) =>
      c && Number.isInteger(c.id) && typeof c.name === 'string'
        ? [{ id: c.id as number, name: c.name, ...(Number.isInteger(c.product_count) ? { productCount: c.product_count as number } : {}) }]
        : [],
    );
  }

  /** GET of a product list → its products (objects) and pagination.total_items. */
  private async readList(url: string, apiKey: string): Promise<{ products: Record<string, unknown>[]; total: number }> {
    const data = (await this.http.read(url, apiKey, {})) as { products?: unknown; pagination?: { total_items?: unknown } };
    const products = data.products;
    if (!Array.isArray(products) || products.some((p) => !p || typeof p !== 'object')) {
      throw new PimReadError('unavailable', `The PIM answered GET ${new URL(url).pathname} without a product list`);
    }
    const total = data.pagination?.total_items;
    return { products: products as Record<string, unknown>[], total: Number.isInteger(total) ? (total as number) : products.length };
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

const keysetUnsupported = (url: string, what: string) =>
  new PimReadError(
    'unavailable',
    `The PIM at ${new URL(url).host} does not page by ${what} (beyond the spec; Pimbridge's PIM does): its list came back out of order`,
  );

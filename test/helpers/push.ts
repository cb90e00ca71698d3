// Push test doubles and helpers: a counting in-memory StorefrontPort (the service's rules are tested against it; the
// end-to-end tests use the real adapter and the sandbox), PIM products made through the PIM API, and the error check.
import assert from 'node:assert/strict';
import type { BulkItemOutcome, BulkUpsertItem, BulkUpsertState } from '../../src/storefront/port/bulk.js';
import { StorefrontError, StorefrontValidationError } from '../../src/storefront/port/errors.js';
import type { KnownStorefrontProduct } from '../../src/storefront/port/known-product.js';
import type { PimProductSnapshot } from '../../src/storefront/port/pim-product.js';
import type { StorefrontLocation, StorefrontPublication } from '../../src/storefront/port/placement.js';
import type { StorefrontShop } from '../../src/storefront/port/shop.js';
import type { ProductUpsertResult } from '../../src/storefront/port/upsert-result.js';
import type { StorefrontPort } from '../../src/storefront/storefront.port.js';
import type { ConnectorHarness } from './connector.js';
import type { Tenant } from './harness.js';

/**
 * A storefront in memory: products by handle `pim-{id}`, numeric ids from 9_000_000_001; counts calls and concurrency.
 * Bulk upserts apply their items (same rules as upsertProduct) when the operation is first polled, unless `holdBulk`;
 * one unfinished bulk operation at a time, as Shopify.
 */
export class FakeStorefront implements StorefrontPort {
  calls: { pimId: number; known: KnownStorefrontProduct; snapshot: PimProductSnapshot }[] = [];
  products = new Map<string, { id: number; handle: string; title: string; variantIds: Record<string, string> }>();
  inFlight = 0;
  maxInFlight = 0;
  /** Set to refuse every call as Shopify does with a revoked token. */
  refuseToken = false;
  /** When set, each call waits for it (to observe a push while it runs). */
  gate: Promise<void> | null = null;
  /** When set, each call waits for what it returns for its snapshot (to order concurrent writers). */
  hold: ((snapshot: PimProductSnapshot) => Promise<void>) | null = null;
  private nextId = 9_000_000_001;
  /** Bulk operations by id; `outcomes` once applied. */
  bulkOps = new Map<string, { items: BulkUpsertItem[]; outcomes?: BulkItemOutcome[] }>();
  /** While true, started bulk operations stay running. */
  holdBulk = false;
  private nextBulk = 1;

  preflight(snapshot: PimProductSnapshot): string[] {
    return this.problems(snapshot);
  }

  async startBulkUpsert(_shop: StorefrontShop, items: BulkUpsertItem[]): Promise<{ operationId: string }> {
    if (this.refuseToken) throw new StorefrontError('unauthorized', 'Shopify refused the access token (HTTP 401)');
    const running = [...this.bulkOps].find(([, op]) => !op.outcomes);
    if (running) throw new StorefrontError('unavailable', `another bulk mutation is running (${running[0]}): OPERATION_IN_PROGRESS`);
    const operationId = `gid://shopify/BulkOperation/${this.nextBulk++}`;
    this.bulkOps.set(operationId, { items: structuredClone(items) });
    return { operationId };
  }

  async bulkUpsertState(_shop: StorefrontShop, operationId: string, _items?: BulkUpsertItem[]): Promise<BulkUpsertState> {
    const op = this.bulkOps.get(operationId);
    if (!op) return { state: 'failed', message: `no bulk operation ${operationId}` };
    if (!op.outcomes) {
      if (this.holdBulk) return { state: 'running', objectCount: 0 };
      op.outcomes = op.items.map((item): BulkItemOutcome => {
        const problems = this.problems(item.product);
        return problems.length ? { ok: false, errors: problems } : { ok: true, result: this.apply(item.product, item.known) };
      });
    }
    return { state: 'completed', outcomes: op.outcomes };
  }

  private problems(snapshot: PimProductSnapshot): string[] {
    const problems: string[] = [];
    if (!snapshot.name.trim()) problems.push("title: Title can't be blank");
    if (snapshot.name.includes('TOO MANY OPTIONS')) problems.push('options: a product has at most 3 options');
    return problems;
  }

  /** Creates or updates the product in memory (the rules both paths share). */
  private apply(snapshot: PimProductSnapshot, known: KnownStorefrontProduct): ProductUpsertResult {
    const handle = `pim-${snapshot.id}`;
    const byId = known.productId ? [...this.products.values()].find((p) => `gid://shopify/Product/${p.id}` === known.productId) : undefined;
    const existing = byId ?? this.products.get(handle);
    const id = existing?.id ?? this.nextId++;
    const skus = snapshot.variants.length ? snapshot.variants.map((v) => v.sku) : [snapshot.sku];
    const variantIds = Object.fromEntries(skus.map((sku, i) => [sku, existing?.variantIds[sku] ?? `gid://shopify/ProductVariant/${id * 10 + i}`]));
    this.products.set(handle, { id, handle, title: snapshot.name, variantIds });
    const first = variantIds[skus[0]];
    return {
      method: existing ? 'update' : 'create',
      productId: `gid://shopify/Product/${id}`,
      productNumericId: id,
      handle,
      title: snapshot.name,
      firstVariantNumericId: first ? Number(first.split('/').pop()) : null,
      variantIds,
      mediaIds: Object.fromEntries((snapshot.images ?? []).map((url, i) => [url, `gid://shopify/MediaImage/${id * 100 + i}`])),
      imagesUnconfirmed: [],
      variantCount: skus.length,
      imageCount: (snapshot.images ?? []).length,
      owned: { tags: snapshot.tags ?? [] },
      inventoryItemIds: {},
      stock: {},
      publications: [],
      problems: [],
      warnings: [],
    };
  }

  async shopHealth(): Promise<never> {
    throw new StorefrontError('unavailable', 'not used');
  }

  async publications(): Promise<StorefrontPublication[]> {
    if (this.refuseToken) throw new StorefrontError('unauthorized', 'Shopify refused the access token (HTTP 401)');
    return [];
  }

  async locations(): Promise<StorefrontLocation[]> {
    if (this.refuseToken) throw new StorefrontError('unauthorized', 'Shopify refused the access token (HTTP 401)');
    return [{ id: 'gid://shopify/Location/1', name: 'Shop location', isActive: true }];
  }

  async upsertProduct(_shop: StorefrontShop, snapshot: PimProductSnapshot, known: KnownStorefrontProduct): Promise<ProductUpsertResult> {
    this.calls.push({ pimId: snapshot.id, known: structuredClone(known), snapshot: structuredClone(snapshot) });
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    try {
      for (let i = 0; i < 3; i++) await new Promise((r) => setImmediate(r));
      if (this.gate) await this.gate;
      if (this.hold) await this.hold(snapshot);
      if (this.refuseToken) throw new StorefrontError('unauthorized', 'Shopify refused the access token (HTTP 401)');
      const problems = this.problems(snapshot);
      if (problems.length) throw new StorefrontValidationError(problems);
      return this.apply(snapshot, known);
    } finally {
      this.inFlight--;
    }
  }
}

/**
 * The storefront an app is built with when its cases each want a double of their own: every call goes to the one the
 * case chose last (`use`). The services get it once, at construction; the cases never reach into them.
 */
export class StorefrontSwitch implements StorefrontPort {
  private current: StorefrontPort = new FakeStorefront();

  /** Sends the app's storefront calls to `double` from now on; returns it. */
  use<T extends StorefrontPort>(double: T): T {
    this.current = double;
    return double;
  }

  shopHealth(...args: Parameters<StorefrontPort['shopHealth']>) {
    return this.current.shopHealth(...args);
  }
  upsertProduct(...args: Parameters<StorefrontPort['upsertProduct']>) {
    return this.current.upsertProduct(...args);
  }
  preflight(...args: Parameters<StorefrontPort['preflight']>) {
    return this.current.preflight(...args);
  }
  publications(...args: Parameters<StorefrontPort['publications']>) {
    return this.current.publications(...args);
  }
  locations(...args: Parameters<StorefrontPort['locations']>) {
    return this.current.locations(...args);
  }
  startBulkUpsert(...args: Parameters<StorefrontPort['startBulkUpsert']>) {
    return this.current.startBulkUpsert(...args);
  }
  bulkUpsertState(...args: Parameters<StorefrontPort['bulkUpsertState']>) {
    return this.current.bulkUpsertState(...args);
  }
}

export function assertError(res: { statusCode: number; json(): any }, status: number, code: string) {
  assert.equal(res.statusCode, status, JSON.stringify(res.json()));
  const body = res.json();
  assert.equal(body.status, 'error');
  assert.equal(body.code, code);
  assert.ok(typeof body.message === 'string' && body.message.length > 0);
}

/** A PIM product made through the PIM API (with variants), returning its id. */
export async function pimProduct(h: ConnectorHarness, tenant: Tenant, name: string, variants = 0): Promise<number> {
  const pim = h.as(tenant);
  const sku = `SKU-${name.replace(/\W+/g, '-')}-${Math.random().toString(36).slice(2, 8)}`;
  const res = await pim('POST', '/api/products', { name, sku, price: '19.99', status: 'active' });
  assert.equal(res.statusCode, 201, res.body);
  const id = res.json().data.id as number;
  for (let i = 1; i <= variants; i++) {
    const v = await pim('POST', `/api/products/${id}/variants`, { sku: `${sku}-V${i}`, name: `${name} ${i}`, price: '21.00' });
    assert.equal(v.statusCode, 201, v.body);
  }
  return id;
}

// Assertions and fixtures shared by the PIM core route suites.
import assert from 'node:assert/strict';
import type { Response as InjectResponse } from 'light-my-request';
import { withGtinCheckDigit } from '../../src/lib/gtin.js';
import type { Harness, Tenant } from './harness.js';
import { until } from './until.js';

export type Call = ReturnType<Harness['as']>;

/** What an error text must never show: stack frames, file paths, SQL, driver wording. */
export const LEAK =
  /\bat .+\.(ts|js|mjs)\b|node_modules|\/src\/|\bSELECT\b[\s\S]*\bFROM\b|\bINSERT\b|\bUPDATE\s+"?\w+"?\s+SET\b|DELETE FROM|relation "|duplicate key|violates|constraint|drizzle|stack/i;

/** Beyond the spec, on products and variants: a Shopify variant's own fields. */
const SELLING_KEYS = ['barcode', 'compare_at_price', 'inventory_policy', 'inventory_tracked', 'requires_shipping', 'sku_generated', 'taxable', 'weight_unit'];

export const PRODUCT_KEYS = [
  'attributes',
  'available_translations',
  'brand',
  'categories',
  'cost_price',
  'created_at',
  'currency',
  'description',
  'ean',
  'id',
  'image_alts',
  'images',
  'in_stock',
  'name',
  'price',
  'product_condition',
  'product_type',
  'publishing_channels',
  'sale_price',
  'short_description',
  'sku',
  'slug',
  'status',
  'stock',
  'supplier',
  'updated_at',
  'vat_rate',
  // Beyond the spec: what a Shopify product holds (src/pim/products/selling-fields.ts).
  ...SELLING_KEYS,
  'gift_card',
  'seo_description',
  'seo_title',
  'storefront_type',
  'tags',
  'taxonomy_category',
  'weight',
].sort();

export const VARIANT_KEYS = [
  'attributes',
  'cost',
  'id',
  'image',
  'is_enabled',
  'name',
  'position',
  'price',
  'product_id',
  'sale_price',
  'sku',
  'stock_quantity',
  'stock_status',
  'warehouse_stock',
  'weight',
  ...SELLING_KEYS,
].sort();

/** A success envelope with this status code; returns `data`. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function okData(res: InjectResponse, statusCode = 200): any {
  assert.equal(res.statusCode, statusCode, res.body);
  assert.match(String(res.headers['content-type']), /^application\/json/);
  const body = res.json();
  assert.deepEqual(Object.keys(body), ['status', 'data', 'error']);
  assert.equal(body.status, 1);
  assert.equal(body.error, null);
  assert.notEqual(body.data, null);
  return body.data;
}

/** An error envelope `{status: 0, data: null, error}` with this status code, leaking nothing; returns the error text. */
export function assertError(res: InjectResponse, statusCode: number, message?: RegExp): string {
  assert.equal(res.statusCode, statusCode, res.body);
  assert.match(String(res.headers['content-type']), /^application\/json/);
  const body = res.json();
  assert.deepEqual(Object.keys(body), ['status', 'data', 'error'], res.body);
  assert.equal(body.status, 0);
  assert.equal(body.data, null);
  assert.equal(typeof body.error, 'string');
  assert.ok(body.error.length > 0, 'the error names the problem');
  assert.doesNotMatch(body.error, LEAK);
  if (message) assert.match(body.error, message);
  return body.error;
}

const fixtureKeys = new WeakMap<Harness, Map<number, Tenant>>();
/** A root category of an organization, created through POST /api/categories (with a fixture API key of that organization). */
export async function insertCategory(h: Harness, organizationId: number, name: string): Promise<number> {
  let keys = fixtureKeys.get(h);
  if (!keys) fixtureKeys.set(h, (keys = new Map()));
  let tenant = keys.get(organizationId);
  if (!tenant) {
    const key = (await h.admin('POST', `/admin/organizations/${organizationId}/api-keys`, { name: 'category fixtures' })).json();
    tenant = { organizationId, apiKey: key.api_key, apiSecret: key.api_secret, keyId: key.id };
    keys.set(organizationId, tenant);
  }
  return okData(await h.as(tenant)('POST', '/api/categories', { name }), 201).id;
}

let skuCounter = 0;
/** A unique SKU for fixtures. */
export const sku = (prefix = 'SKU') => `${prefix}-${process.pid}-${++skuCounter}`;

let eanCounter = 0;
/** A unique, valid EAN-13. */
export const validEan = () => withGtinCheckDigit(`29${String(process.pid % 1000).padStart(3, '0')}${String(++eanCounter).padStart(7, '0')}`);
/** The same barcode with a wrong check digit. */
export const wrongCheckDigit = (ean: string) => `${ean.slice(0, -1)}${(Number(ean.at(-1)) + 1) % 10}`;

/** Creates a product (201) and returns it. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function createProduct(call: Call, fields: Record<string, unknown> = {}): Promise<any> {
  return okData(await call('POST', '/api/products', { name: 'Fixture product', sku: sku('P'), ...fields }), 201);
}

/** Ids of the products in one page of a listing. */
export async function listIds(call: Call, query = ''): Promise<number[]> {
  const data = okData(await call('GET', `/api/products${query ? `?${query}` : ''}`));
  return data.products.map((p: { id: number }) => p.id);
}

/** total_items of the product list (with an optional query). */
export async function productCount(call: Call, query = ''): Promise<number> {
  return okData(await call('GET', `/api/products${query ? `?${query}` : ''}`)).pagination.total_items;
}

/** Waits until the clock has moved past `ms` (epoch milliseconds) by more than `byMs`. */
export const clockPast = (ms: number, byMs = 5) => until('the clock to move on', () => Date.now() > ms + byMs, 1_000, 1);

/**
 * An ISO 8601 instant strictly between what happened before the call and what happens after it (a few milliseconds
 * each side, for timestamps written by the database's own clock).
 */
export async function instantBetween(): Promise<string> {
  await clockPast(Date.now());
  const at = Date.now();
  await clockPast(at);
  return new Date(at).toISOString();
}

/** Raw JSON request: the exact bytes given, with a JSON content type unless told otherwise. */
export function raw(call: Call, method: string, url: string, body: string, contentType = 'application/json') {
  return call(method, url, body, { 'content-type': contentType });
}

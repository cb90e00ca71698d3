// Pure helpers of the product pages (no React, no fetch): the list's URL parameters, the editor's form state and the
// body it sends, decimal checks, attribute values, category trees, prices, and a push answer in plain words.
import type { components } from '../api/schema';

export type Product = components['schemas']['def-1'];
export type Variant = components['schemas']['def-2'];
export type CategoryNode = components['schemas']['def-5'];

export const STATUSES = ['draft', 'active', 'archived', 'out_of_stock'] as const;
export type Status = (typeof STATUSES)[number];
export const CONDITIONS = ['new', 'used', 'refurbished'] as const;
export const CHANNELS = ['web', 'mobile', 'api', 'marketplace', 'social', 'email'] as const;
export type Channel = (typeof CHANNELS)[number];
export const PER_PAGE = [25, 50] as const;

export const STATUS_LABEL: Record<string, string> = { draft: 'Draft', active: 'Active', archived: 'Archived', out_of_stock: 'Out of stock' };
/** The badge class of a product status (styles.css: badge ok/warn/error). */
export const statusTone = (status: string) => (status === 'active' ? 'ok' : status === 'out_of_stock' ? 'warn' : status === 'archived' ? 'error' : '');

// ---------------------------------------------------------------------------------------------------------------
// The product list's filters, kept in the URL.

export interface ListFilters {
  q: string;
  status: Status | '';
  brand: number | null;
  channel: Channel | '';
  category: number | null;
  page: number;
  perPage: (typeof PER_PAGE)[number];
}

const positive = (text: string | null) => {
  const n = Number(text);
  return Number.isInteger(n) && n > 0 ? n : null;
};

/** The filters named by the URL's search parameters; anything unknown or malformed is ignored. */
export function readFilters(params: URLSearchParams): ListFilters {
  const status = params.get('status') ?? '';
  const channel = params.get('channel') ?? '';
  const perPage = Number(params.get('per_page'));
  return {
    q: (params.get('q') ?? '').slice(0, 200),
    status: (STATUSES as readonly string[]).includes(status) ? (status as Status) : '',
    brand: positive(params.get('brand')),
    channel: (CHANNELS as readonly string[]).includes(channel) ? (channel as Channel) : '',
    category: positive(params.get('category')),
    page: Math.min(positive(params.get('page')) ?? 1, 1_000_000),
    perPage: perPage === 50 ? 50 : 25,
  };
}

/** The URL search parameters of some filters (defaults left out, so a plain list has a plain URL). */
export function writeFilters(f: ListFilters): URLSearchParams {
  const params = new URLSearchParams();
  if (f.q.trim()) params.set('q', f.q);
  if (f.status) params.set('status', f.status);
  if (f.brand) params.set('brand', String(f.brand));
  if (f.channel) params.set('channel', f.channel);
  if (f.category) params.set('category', String(f.category));
  if (f.page > 1) params.set('page', String(f.page));
  if (f.perPage !== 25) params.set('per_page', String(f.perPage));
  return params;
}

export const hasFilters = (f: ListFilters) => Boolean(f.q.trim() || f.status || f.brand || f.channel || f.category);

/** The query of GET /api/products for these filters (`category` is sent as the server's list filter). */
export function listQuery(f: ListFilters) {
  const query: {
    page: number;
    limit: number;
    search?: string;
    status?: Status;
    brand?: number;
    channel?: Channel;
    category?: number;
  } = { page: f.page, limit: f.perPage };
  if (f.q.trim()) query.search = f.q.trim();
  if (f.status) query.status = f.status;
  if (f.brand) query.brand = f.brand;
  if (f.channel) query.channel = f.channel;
  if (f.category) query.category = f.category;
  return query;
}

// ---------------------------------------------------------------------------------------------------------------
// Prices and decimals.

/** The server's pattern of a decimal input: up to 15 digits, at most 4 decimal places, not negative. */
export const DECIMAL = /^\d{1,15}(\.\d{1,4})?$/;
export const DECIMAL_MESSAGE = 'must be a decimal such as 19.99 (up to 15 digits, at most 4 decimal places, not negative)';

/** A decimal as the merchant typed it, for the server: a comma is read as the decimal point; blank is null. */
export function decimalInput(text: string): { value: string | null; error: string | null } {
  const t = text.trim().replace(',', '.');
  if (t === '') return { value: null, error: null };
  return DECIMAL.test(t) ? { value: t, error: null } : { value: null, error: DECIMAL_MESSAGE };
}

/** "19.9000" → "19.90": a stored decimal, shown with no more places than it needs (at least two). */
export function decimalShown(value: string | null | undefined): string {
  if (value == null || value === '') return '';
  const [whole, fraction = ''] = value.split('.');
  const trimmed = fraction.replace(/0+$/, '');
  return `${whole}.${trimmed.padEnd(2, '0')}`;
}

/** A price with its currency in the merchant's locale; the plain number and code when the code is not one. */
export function formatPrice(value: string | null | undefined, currency: string, locale?: string): string {
  if (value == null || value === '') return '—';
  try {
    return new Intl.NumberFormat(locale, { style: 'currency', currency, maximumFractionDigits: 4 }).format(Number(value));
  } catch {
    return `${decimalShown(value)} ${currency}`;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Categories.

export interface CategoryOption {
  id: number;
  name: string;
  level: number;
  /** "Clothing › Tops" */
  label: string;
}

/** A tree, depth first in sibling order, each category with its path written out. */
export function flattenTree(nodes: CategoryNode[], trail: string[] = []): CategoryOption[] {
  const out: CategoryOption[] = [];
  const sorted = [...nodes].sort((a, b) => a.position - b.position);
  for (const node of sorted) {
    const path = [...trail, node.name];
    out.push({ id: node.id, name: node.name, level: node.level, label: path.join(' › ') });
    out.push(...flattenTree(node.children ?? [], path));
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// Attributes: each definition's value as an input holds it, and back.

export type AttributeType = 'text' | 'textarea' | 'number' | 'boolean' | 'date' | 'select' | 'multiselect';
export interface AttributeDefinition {
  code: string;
  name: string;
  type: string;
  options: string[];
  is_required: boolean;
}

/** The value of an input (string, or string[] for a multiselect, boolean for a checkbox) from a stored value. */
export function attributeToInput(def: AttributeDefinition, value: unknown): string | string[] | boolean {
  switch (def.type) {
    case 'boolean':
      return value === true;
    case 'multiselect':
      return Array.isArray(value) ? value.map(String) : [];
    case 'number':
      return typeof value === 'number' ? String(value) : '';
    default:
      return typeof value === 'string' ? value : value == null ? '' : String(value);
  }
}

/** The stored value of an input: null when blank (no value); an error when it cannot be one. */
export function attributeFromInput(def: AttributeDefinition, input: string | string[] | boolean): { value: unknown; error: string | null } {
  switch (def.type) {
    case 'boolean':
      return { value: input === true, error: null };
    case 'multiselect': {
      const list = Array.isArray(input) ? input : [];
      return { value: list.length ? list : null, error: null };
    }
    case 'number': {
      const t = String(input).trim().replace(',', '.');
      if (t === '') return { value: null, error: null };
      const n = Number(t);
      return Number.isFinite(n) ? { value: n, error: null } : { value: null, error: 'must be a number' };
    }
    case 'date': {
      const t = String(input).trim();
      if (t === '') return { value: null, error: null };
      return /^\d{4}-\d{2}-\d{2}$/.test(t) ? { value: t, error: null } : { value: null, error: 'must be a date written YYYY-MM-DD' };
    }
    default: {
      const t = String(input);
      return { value: t.trim() === '' ? null : t, error: null };
    }
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The product form.

export interface ProductForm {
  sku: string;
  name: string;
  slug: string;
  description: string;
  short_description: string;
  product_type: string;
  price: string;
  sale_price: string;
  cost_price: string;
  currency: string;
  status: Status;
  ean: string;
  vat_rate_id: string;
  brand_id: string;
  supplier_id: string;
  category_ids: number[];
  publishing_channels: string[];
  product_condition: string;
  attributes: Record<string, string | string[] | boolean>;
}

export function emptyForm(definitions: AttributeDefinition[]): ProductForm {
  return {
    sku: '',
    name: '',
    slug: '',
    description: '',
    short_description: '',
    product_type: 'simple',
    price: '',
    sale_price: '',
    cost_price: '',
    currency: 'EUR',
    status: 'draft',
    ean: '',
    vat_rate_id: '',
    brand_id: '',
    supplier_id: '',
    category_ids: [],
    publishing_channels: ['web'],
    product_condition: 'new',
    attributes: Object.fromEntries(definitions.map((d) => [d.code, attributeToInput(d, undefined)])),
  };
}

export function formOf(p: Product, definitions: AttributeDefinition[]): ProductForm {
  return {
    sku: p.sku,
    name: p.name,
    slug: p.slug,
    description: p.description ?? '',
    short_description: p.short_description ?? '',
    product_type: p.product_type,
    price: decimalShown(p.price),
    sale_price: decimalShown(p.sale_price),
    cost_price: decimalShown(p.cost_price),
    currency: p.currency,
    status: (STATUSES as readonly string[]).includes(p.status) ? (p.status as Status) : 'draft',
    ean: p.ean ?? '',
    vat_rate_id: p.vat_rate ? String(p.vat_rate.id) : '',
    brand_id: p.brand ? String(p.brand.id) : '',
    supplier_id: p.supplier ? String(p.supplier.id) : '',
    category_ids: p.categories.map((c) => c.id),
    publishing_channels: [...p.publishing_channels],
    product_condition: p.product_condition,
    attributes: Object.fromEntries(definitions.map((d) => [d.code, attributeToInput(d, p.attributes?.[d.code])])),
  };
}

export type ProductBody = Record<string, unknown>;

/**
 * The body to send: every field of a new product that has a value, or only the fields that changed (a PATCH).
 * Client-side problems come back by field name, in the server's naming (`price`, `attributes.color`).
 */
export function productBody(
  form: ProductForm,
  definitions: AttributeDefinition[],
  before: ProductForm | null,
): { body: ProductBody; errors: Record<string, string> } {
  const errors: Record<string, string> = {};
  const body: ProductBody = {};
  const changed = (key: keyof ProductForm) => before === null || JSON.stringify(form[key]) !== JSON.stringify(before[key]);
  const text = (key: 'description' | 'short_description' | 'ean') => {
    if (!changed(key)) return;
    const t = form[key].trim();
    if (t !== '' || before !== null) body[key] = t === '' ? null : key === 'ean' ? t : form[key];
  };
  const required = (key: 'sku' | 'name' | 'product_type' | 'currency' | 'slug') => {
    if (!changed(key)) return;
    const t = form[key].trim();
    if (t === '') {
      if (key === 'slug' && before === null) return; // the server derives it from the name
      errors[key] = 'must not be empty';
    } else body[key] = t;
  };
  required('sku');
  required('name');
  required('slug');
  required('product_type');
  required('currency');
  if (body.currency !== undefined && !/^[A-Z]{3}$/.test(String(body.currency))) errors.currency = 'must be a three-letter code such as EUR';
  if (body.slug !== undefined && !/^[a-z0-9]+(-[a-z0-9]+)*$/.test(String(body.slug))) errors.slug = 'must be lower-case letters, digits and single hyphens';
  text('description');
  text('short_description');
  text('ean');
  if (typeof body.ean === 'string' && !/^\d{8,14}$/.test(body.ean)) errors.ean = 'must be a barcode of 8 to 14 digits';
  for (const key of ['price', 'sale_price', 'cost_price'] as const) {
    if (!changed(key)) continue;
    const { value, error } = decimalInput(form[key]);
    if (error) errors[key] = error;
    else if (value !== null || before !== null) body[key] = value;
  }
  for (const key of ['brand_id', 'supplier_id', 'vat_rate_id'] as const) {
    if (!changed(key)) continue;
    if (form[key] !== '' || before !== null) body[key] = form[key] === '' ? null : Number(form[key]);
  }
  if (changed('status')) body.status = form.status;
  if (changed('product_condition')) body.product_condition = form.product_condition;
  if (changed('category_ids')) body.category_ids = form.category_ids;
  if (changed('publishing_channels')) body.publishing_channels = form.publishing_channels;

  const attributes: Record<string, unknown> = {};
  for (const def of definitions) {
    const input = form.attributes[def.code];
    if (input === undefined) continue;
    if (before !== null && JSON.stringify(input) === JSON.stringify(before.attributes[def.code])) continue;
    const { value, error } = attributeFromInput(def, input);
    if (error) errors[`attributes.${def.code}`] = error;
    else if (value === null && def.is_required) errors[`attributes.${def.code}`] = 'is required';
    else if (value !== null || before !== null) attributes[def.code] = value;
  }
  if (Object.keys(attributes).length) body.attributes = attributes;
  return { body, errors };
}

/**
 * The form key a server field name belongs to: itself when the form has it, else its nearest parent
 * (`category_ids[0]` → `category_ids`, `attributes[1].value` → `attributes`); null when none fits.
 */
export function errorKey(name: string, known: Iterable<string>): string | null {
  const keys = new Set(known);
  let n = name;
  while (n) {
    if (keys.has(n)) return n;
    const cut = Math.max(n.lastIndexOf('.'), n.lastIndexOf('['));
    if (cut <= 0) return null;
    n = n.slice(0, cut);
  }
  return null;
}

/** A server error placed beside its field: { key: message } for the first key that fits, else {}. */
export function placeErrors(serverErrors: Record<string, string>, known: Iterable<string>): Record<string, string> {
  const keys = [...known];
  const out: Record<string, string> = {};
  for (const [name, message] of Object.entries(serverErrors)) {
    const key = errorKey(name, keys);
    if (key) out[key] = message;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// Variants.

/** The position updates that move a variant one place up (-1) or down (+1): the two neighbours swap positions. */
export function swapPositions(variants: Pick<Variant, 'id' | 'position'>[], id: number, direction: -1 | 1): { id: number; position: number }[] {
  const ordered = [...variants].sort((a, b) => a.position - b.position || a.id - b.id);
  const i = ordered.findIndex((v) => v.id === id);
  const j = i + direction;
  if (i < 0 || j < 0 || j >= ordered.length) return [];
  const [a, b] = [ordered[i], ordered[j]];
  // Positions may repeat (the server does not renumber): give them distinct places when they tie.
  const pa = a.position === b.position ? (direction === -1 ? b.position : b.position + 1) : b.position;
  const pb = a.position === b.position ? (direction === -1 ? b.position + 1 : b.position) : a.position;
  return [
    { id: a.id, position: pa },
    { id: b.id, position: pb },
  ];
}

/** "Size: M, Colour: Navy" ↔ [{attribute_name, value}]: the options of a variant as one line of text. */
export function optionsToText(attributes: Variant['attributes']): string {
  return attributes.map((a) => `${a.attribute_name}: ${a.value}`).join(', ');
}

export function optionsFromText(text: string): { value: Variant['attributes']; error: string | null } {
  const parts = text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  const value: Variant['attributes'] = [];
  for (const part of parts) {
    const colon = part.indexOf(':');
    if (colon <= 0) return { value: [], error: `"${part}" must be written name: value (e.g. Size: M)` };
    value.push({ attribute_name: part.slice(0, colon).trim(), value: part.slice(colon + 1).trim() });
  }
  return { value, error: null };
}

// ---------------------------------------------------------------------------------------------------------------
// Shopify.

export interface PushResult {
  status: 'success' | 'error';
  message: string;
  method?: 'create' | 'update';
  validation_errors?: string[];
  storefront_product_id: number | null;
}

/** A push answer's result for one product as sentences a merchant reads. */
export function pushSummary(result: PushResult | undefined, fallback: string): { ok: boolean; lines: string[] } {
  if (!result) return { ok: false, lines: [fallback] };
  if (result.status === 'success') {
    return { ok: true, lines: [result.method === 'create' ? 'Created in the store.' : result.method === 'update' ? 'Updated in the store.' : result.message] };
  }
  const reasons = result.validation_errors?.length ? result.validation_errors : [];
  return { ok: false, lines: [result.message, ...reasons.filter((r) => r !== result.message)] };
}

/** "2024-05-01 10:00:00" (UTC, as the connector writes it) in the merchant's time. */
export function connectorTime(text: string | null | undefined, locale?: string): string {
  if (!text) return 'never';
  const date = new Date(`${text.replace(' ', 'T')}Z`);
  return Number.isNaN(date.getTime()) ? text : date.toLocaleString(locale);
}

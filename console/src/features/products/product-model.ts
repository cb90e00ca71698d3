// Pure helpers of the product pages (no React, no fetch): the list's URL parameters, the editor's form state and the
// body it sends, decimal checks, attribute values, category trees, prices, and a push answer in plain words.
import type { components } from '../../api/schema';

export type Product = components['schemas']['Product'];
export type Variant = components['schemas']['Variant'];

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
  /** The list's order (GET /api/products `sort`): a key, `-` first for descending; '' for the server's (by id). */
  sort: string;
}

/** The keys the list sorts by (the server's `sort`). */
export const SORT_KEYS = ['id', 'name', 'sku', 'price', 'stock', 'status', 'updated_at'] as const;
const SORT = new RegExp(`^-?(${SORT_KEYS.join('|')})$`);

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
    sort: SORT.test(params.get('sort') ?? '') ? (params.get('sort') ?? '') : '',
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
  if (f.sort) params.set('sort', f.sort);
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
    sort?: string;
  } = { page: f.page, limit: f.perPage };
  if (f.sort) query.sort = f.sort;
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

/** What flattenTree reads of a category of GET /api/categories/tree. */
export interface CategoryTreeNode {
  id: number;
  name: string;
  level: number;
  position: number;
  children?: CategoryTreeNode[];
}

/** A tree, depth first in sibling order, each category with its path written out. */
export function flattenTree(nodes: readonly CategoryTreeNode[], trail: string[] = []): CategoryOption[] {
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
  tags: string[];
  seo_title: string;
  seo_description: string;
  gift_card: boolean;
  taxonomy_category: string;
  /** Shopify's "Type" (the PIM's `product_type` is its own kind of product). */
  storefront_type: string;
  /** How a product without variants sells (a product with variants sells as its variants). */
  selling: SellingForm;
}

/** A new product's form; `currency` is the organization's default currency when it has one. */
/**
 * The PIM's own kind of product (`product_type`, free text in the API, `simple` by default) in a merchant's words; a
 * kind the API set that is not among them is offered as it is.
 */
export const PRODUCT_KINDS: [string, string][] = [
  ['simple', 'Standard'],
  ['bundle', 'Bundle'],
  ['digital', 'Digital'],
  ['service', 'Service'],
];
export const productKinds = (current: string): [string, string][] =>
  PRODUCT_KINDS.some(([value]) => value === current) || !current ? PRODUCT_KINDS : [...PRODUCT_KINDS, [current, current]];

export function emptyForm(definitions: AttributeDefinition[], currency = 'EUR'): ProductForm {
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
    currency,
    status: 'draft',
    ean: '',
    vat_rate_id: '',
    brand_id: '',
    supplier_id: '',
    category_ids: [],
    publishing_channels: ['web'],
    product_condition: 'new',
    attributes: Object.fromEntries(definitions.map((d) => [d.code, attributeToInput(d, undefined)])),
    tags: [],
    seo_title: '',
    seo_description: '',
    gift_card: false,
    taxonomy_category: '',
    storefront_type: '',
    selling: emptySelling(),
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
    tags: [...(p.tags ?? [])],
    seo_title: p.seo_title ?? '',
    seo_description: p.seo_description ?? '',
    gift_card: p.gift_card === true,
    taxonomy_category: p.taxonomy_category ?? '',
    storefront_type: p.storefront_type ?? '',
    selling: sellingFormOf(p),
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
  // The server's slug pattern (a Shopify handle): lower-case letters of any script and digits, single hyphens.
  if (body.slug !== undefined && !/^[\p{Ll}\p{Lm}\p{Lo}\p{M}\p{N}]+(-[\p{Ll}\p{Lm}\p{Lo}\p{M}\p{N}]+)*$/u.test(String(body.slug)))
    errors.slug = 'must be lower-case letters (of any script) and digits joined by single hyphens';
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

  if (changed('tags') && (form.tags.length > 0 || before !== null)) {
    const problem = tagsProblem(form.tags);
    if (problem) errors.tags = problem;
    else body.tags = form.tags;
  }
  for (const key of ['seo_title', 'seo_description', 'taxonomy_category', 'storefront_type'] as const) {
    if (!changed(key)) continue;
    const t = form[key].trim();
    if (t !== '' || before !== null) body[key] = t === '' ? null : t;
  }
  if (changed('gift_card') && (form.gift_card || before !== null)) body.gift_card = form.gift_card;
  sellingBody(form.selling, before?.selling ?? null, body, errors);

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
// What a Shopify product holds beyond the spec: tags, the search engine listing, and how a product without variants
// (or each variant) sells and ships. Null in the API is "not set": the store keeps its own setting.

export const WEIGHT_UNITS = ['kg', 'g', 'lb', 'oz'] as const;
export type WeightUnit = (typeof WEIGHT_UNITS)[number];
export const WEIGHT_UNIT_LABEL: Record<WeightUnit, string> = { kg: 'kg', g: 'g', lb: 'lb', oz: 'oz' };

/** A setting the store may keep as its own: '' is "not set". */
export type TriState = '' | 'yes' | 'no';
export const TRI_STATE_LABEL: Record<TriState, string> = { yes: 'Yes', no: 'No', '': 'Not set' };
export const triOf = (value: boolean | null | undefined): TriState => (value === true ? 'yes' : value === false ? 'no' : '');
export const triValue = (value: TriState): boolean | null => (value === 'yes' ? true : value === 'no' ? false : null);

export type InventoryPolicy = '' | 'deny' | 'continue';
export const INVENTORY_POLICY_LABEL: Record<InventoryPolicy, string> = {
  deny: 'Stop selling',
  continue: 'Continue selling',
  '': 'Not set',
};

export interface SellingForm {
  barcode: string;
  compare_at_price: string;
  weight: string;
  /** Never blank: a weight with no unit is in kilograms. */
  weight_unit: WeightUnit;
  inventory_policy: InventoryPolicy;
  inventory_tracked: TriState;
  taxable: TriState;
  requires_shipping: TriState;
}
export const SELLING_KEYS = [
  'barcode',
  'compare_at_price',
  'weight',
  'weight_unit',
  'inventory_policy',
  'inventory_tracked',
  'taxable',
  'requires_shipping',
] as const satisfies readonly (keyof SellingForm)[];

export const emptySelling = (): SellingForm => ({
  barcode: '',
  compare_at_price: '',
  weight: '',
  weight_unit: 'kg',
  inventory_policy: '',
  inventory_tracked: '',
  taxable: '',
  requires_shipping: '',
});

/** The selling fields as a product (without variants) or a variant answers them. */
export interface SellingView {
  barcode?: string | null;
  compare_at_price?: string | null;
  weight?: string | null;
  weight_unit?: string | null;
  inventory_policy?: string | null;
  inventory_tracked?: boolean | null;
  taxable?: boolean | null;
  requires_shipping?: boolean | null;
}

export function sellingFormOf(v: SellingView): SellingForm {
  return {
    barcode: v.barcode ?? '',
    compare_at_price: decimalShown(v.compare_at_price),
    weight: weightShown(v.weight),
    weight_unit: (WEIGHT_UNITS as readonly string[]).includes(v.weight_unit ?? '') ? (v.weight_unit as WeightUnit) : 'kg',
    inventory_policy: v.inventory_policy === 'deny' || v.inventory_policy === 'continue' ? v.inventory_policy : '',
    inventory_tracked: triOf(v.inventory_tracked),
    taxable: triOf(v.taxable),
    requires_shipping: triOf(v.requires_shipping),
  };
}

/** "0.2500" → "0.25", "2.0000" → "2": a weight as people write it. */
export function weightShown(value: string | null | undefined): string {
  if (value == null || value === '') return '';
  return value.includes('.') ? value.replace(/0+$/, '').replace(/\.$/, '') : value;
}

/**
 * The selling fields' part of a body, added to `body` (problems to `errors`): every field that has a value when
 * `before` is null (a new product or variant), else those that changed (blank or "Not set" clears).
 */
export function sellingBody(form: SellingForm, before: SellingForm | null, body: Record<string, unknown>, errors: Record<string, string>): void {
  const changed = (k: keyof SellingForm) => before === null || form[k] !== before[k];
  if (changed('barcode')) {
    const t = form.barcode.trim();
    if (t.length > 255) errors.barcode = 'must be at most 255 characters';
    else if (t !== '' || before !== null) body.barcode = t === '' ? null : t;
  }
  for (const key of ['compare_at_price', 'weight'] as const) {
    if (!changed(key)) continue;
    const { value, error } = decimalInput(form[key]);
    if (error) errors[key] = error;
    else if (value !== null || before !== null) body[key] = value;
  }
  // Kilograms are what no unit means: a new one says so only when it is another unit.
  if (changed('weight_unit') && (before !== null || form.weight_unit !== 'kg')) body.weight_unit = form.weight_unit;
  if (changed('inventory_policy') && (form.inventory_policy !== '' || before !== null)) body.inventory_policy = form.inventory_policy || null;
  for (const key of ['inventory_tracked', 'taxable', 'requires_shipping'] as const) {
    if (changed(key) && (form[key] !== '' || before !== null)) body[key] = triValue(form[key]);
  }
}

/** The selling fields that hold a value, in words: "Barcode 0123 · 250 g · Continue selling when out of stock". */
export function sellingSummary(form: SellingForm, currency: string): string {
  const parts: string[] = [];
  if (form.barcode.trim()) parts.push(`Barcode ${form.barcode.trim()}`);
  if (form.compare_at_price.trim()) parts.push(`compare at ${form.compare_at_price.trim()} ${currency}`);
  if (form.weight.trim()) parts.push(`${form.weight.trim()} ${form.weight_unit}`);
  if (form.inventory_policy) parts.push(`${INVENTORY_POLICY_LABEL[form.inventory_policy].toLowerCase()} when out of stock`);
  if (form.inventory_tracked) parts.push(form.inventory_tracked === 'yes' ? 'quantity tracked' : 'quantity not tracked');
  if (form.taxable) parts.push(form.taxable === 'yes' ? 'taxed' : 'not taxed');
  if (form.requires_shipping) parts.push(form.requires_shipping === 'yes' ? 'needs shipping' : 'no shipping');
  const text = parts.join(' · ');
  return text ? text[0].toUpperCase() + text.slice(1) : '';
}

// Tags.

export const MAX_TAGS = 250;
export const MAX_TAG_LENGTH = 255;

/**
 * The tags after typing `text` (one tag, or several separated by commas): each trimmed, blanks dropped, and a tag
 * already there in any letter case left out (the store treats "Summer" and "summer" as one tag).
 */
export function addTags(tags: string[], text: string): string[] {
  const out = [...tags];
  for (const part of text.split(',')) {
    const tag = part.trim().replace(/\s+/g, ' ');
    if (tag && !out.some((t) => t.toLowerCase() === tag.toLowerCase())) out.push(tag);
  }
  return out;
}

export const removeTag = (tags: string[], tag: string) => tags.filter((t) => t !== tag);

/** Why the store would refuse these tags, or null. */
export function tagsProblem(tags: string[]): string | null {
  if (tags.length > MAX_TAGS) return `at most ${MAX_TAGS} tags (there are ${tags.length})`;
  const long = tags.find((t) => t.length > MAX_TAG_LENGTH);
  return long ? `“${long.slice(0, 20)}…” is longer than ${MAX_TAG_LENGTH} characters` : null;
}

// The search engine listing.

/** What search engines show of a page title and a meta description (Shopify's admin counts against these). */
export const SEO_TITLE_LIMIT = 70;
export const SEO_DESCRIPTION_LIMIT = 320;

/** "12 of 70 characters used", or, past the limit, that search engines cut the rest. */
export function seoCount(text: string, limit: number): { text: string; over: boolean } {
  const n = [...text].length;
  if (n > limit) return { text: `${n} characters: search engines show about the first ${limit}`, over: true };
  return { text: `${n} of ${limit} characters used`, over: false };
}

// ---------------------------------------------------------------------------------------------------------------
// Variants.

/** A variant's row in the variants grid (a new one's too). */
export interface VariantDraft {
  is_enabled: boolean;
  sku: string;
  name: string;
  price: string;
  sale_price: string;
  stock_quantity: string;
  options: string;
  selling: SellingForm;
}
/** The server's field names a variant form places errors beside. */
export const VARIANT_KEYS = ['sku', 'name', 'price', 'sale_price', 'stock_quantity', 'attributes', ...SELLING_KEYS];

export const variantDraftOf = (v: Variant): VariantDraft => ({
  is_enabled: v.is_enabled,
  sku: v.sku,
  name: v.name,
  price: decimalShown(v.price),
  sale_price: decimalShown(v.sale_price),
  stock_quantity: String(v.stock_quantity),
  options: optionsToText(v.attributes),
  selling: sellingFormOf(v),
});
export const emptyVariantDraft = (): VariantDraft => ({
  is_enabled: true,
  sku: '',
  name: '',
  price: '',
  sale_price: '',
  stock_quantity: '0',
  options: '',
  selling: emptySelling(),
});

/** The body of a variant's form (all fields, or only those changed from `before`) and its problems by field. */
export function variantBody(d: VariantDraft, before: VariantDraft | null): { body: Record<string, unknown>; errors: Record<string, string> } {
  const errors: Record<string, string> = {};
  const body: Record<string, unknown> = {};
  const changed = (k: Exclude<keyof VariantDraft, 'selling'>) => before === null || d[k] !== before[k];
  if (before !== null && d.is_enabled !== before.is_enabled) body.is_enabled = d.is_enabled;
  else if (before === null && !d.is_enabled) body.is_enabled = false;
  if (changed('sku')) d.sku.trim() ? (body.sku = d.sku.trim()) : (errors.sku = 'must not be empty');
  if (changed('name')) d.name.trim() ? (body.name = d.name.trim()) : (errors.name = 'must not be empty');
  for (const k of ['price', 'sale_price'] as const) {
    if (!changed(k)) continue;
    const { value, error } = decimalInput(d[k]);
    if (error) errors[k] = error;
    else if (value !== null || before !== null) body[k] = value;
  }
  if (changed('stock_quantity')) {
    if (/^-?\d{1,10}$/.test(d.stock_quantity.trim())) body.stock_quantity = Number(d.stock_quantity);
    else errors.stock_quantity = 'must be a whole number';
  }
  if (changed('options')) {
    const { value, error } = optionsFromText(d.options);
    if (error) errors.attributes = error;
    else body.attributes = value;
  }
  sellingBody(d.selling, before?.selling ?? null, body, errors);
  return { body, errors };
}

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

/** The product page's sections on its save bar, in the order Save sends them (components/unsaved-changes.tsx). */
export const SAVE_ORDER = { details: 0, variants: 1, translation: 2, stock: 3 } as const;

// How the bridge maps PIM data onto one shop, per integration (integrations.settings, jsonb), and its defaults:
// - PIM publishing channels → the shop's publications: `web` → Online Store, `mobile` → Shop, the other channels
//   unmapped, until the merchant maps a channel explicitly (GET/PUT /api/integration/channels);
// - PIM warehouses → the shop's locations: a warehouse goes to the location of the same name or code unless mapped
//   explicitly (to a location, or to null: not synced); variant stock (the PIM keeps it without a warehouse) and
//   unmatched warehouses go to the default location, explicit or else the first active location by name
//   (GET/PUT /api/integration/locations);
// - whether prices are converted by something else, which turns off the currency check (GET/PUT /api/integration/pricing);
// - where the product type comes from: the first category's name by default, or a PIM attribute (GET/PUT /api/integration/product-type);
// - which PIM attributes become product metafields, under which namespace and keys: all, in `pimbridge_attr`, by default
//   (GET/PUT /api/integration/attributes).
import type { StorefrontLocation, StorefrontPublication, SyncPlacement } from '../../storefront/port/placement.js';

/** The PIM's publishing channels (spec: Product.publishing_channels). */
export const PIM_CHANNELS = ['web', 'mobile', 'api', 'marketplace', 'social', 'email'] as const;

/** The default publication of a channel, by its catalog title; channels not listed are published nowhere by default. */
export const DEFAULT_CHANNEL_PUBLICATIONS: Readonly<Record<string, string>> = { web: 'Online Store', mobile: 'Shop' };

export interface IntegrationSettings {
  /** Explicit publications per channel (replacing the channel's default); [] = the channel is published nowhere. */
  channels?: Record<string, string[]>;
  /** Explicit location per warehouse code; null = the warehouse is not synced. */
  warehouses?: Record<string, string | null>;
  /** Where variant stock and unmatched warehouses go; unset = the first active location by name. */
  default_location?: string | null;
  prices_converted_elsewhere?: boolean;
  /**
   * A product the merchant deleted in the shop (products/delete webhook) is created again by the next sync (default
   * true); false: its mapping stays `error` and pushes skip it until this is turned back on (docs/sync.md, "Webhooks").
   */
  recreate_deleted_products?: boolean;
  /** Where Shopify's `productType` comes from (GET/PUT /api/integration/product-type); unset = the first category's name. */
  product_type?: ProductTypeSetting;
  /** Which PIM attributes become product metafields, and under which namespace and keys (GET/PUT /api/integration/attributes). */
  attribute_metafields?: AttributeMetafieldSettings;
}

/** `first_category`: the product's first category's name; `attribute`: the value of that PIM attribute. */
export type ProductTypeSetting = { source: 'first_category' } | { source: 'attribute'; attribute_code: string };

export interface AttributeMetafieldSettings {
  /** false: no attribute is synced (the bridge's own `pimbridge` metafields still are). */
  enabled: boolean;
  /** The bridge's namespace of attribute metafields (every metafield in it is the bridge's: one the PIM no longer has is removed). */
  namespace: string;
  /** The attribute codes synced, or null for all of them. */
  only: string[] | null;
  /** Codes never synced (applied after `only`). */
  exclude: string[];
  /** Metafield key per attribute code where it is not the code itself. */
  keys: Record<string, string>;
}

export const DEFAULT_PRODUCT_TYPE: ProductTypeSetting = { source: 'first_category' };
export const DEFAULT_ATTRIBUTE_NAMESPACE = 'pimbridge_attr';
export const DEFAULT_ATTRIBUTE_METAFIELDS: AttributeMetafieldSettings = {
  enabled: true,
  namespace: DEFAULT_ATTRIBUTE_NAMESPACE,
  only: null,
  exclude: [],
  keys: {},
};
/** Attributes that have a home of their own in Shopify (the SEO fields): never synced as metafields as well. */
export const ATTRIBUTES_WITH_A_HOME: readonly string[] = ['seo_title', 'seo_description'];

/** The stored jsonb, defensively: anything malformed is treated as unset. */
export function parseSettings(raw: unknown): IntegrationSettings {
  const o = raw && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
  const out: IntegrationSettings = {};
  const record = (v: unknown) => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null);
  const channels = record(o.channels);
  if (channels) {
    out.channels = {};
    for (const [k, v] of Object.entries(channels)) if (Array.isArray(v)) out.channels[k] = v.filter((x): x is string => typeof x === 'string');
  }
  const warehouses = record(o.warehouses);
  if (warehouses) {
    out.warehouses = {};
    for (const [k, v] of Object.entries(warehouses)) if (typeof v === 'string' || v === null) out.warehouses[k] = v;
  }
  if (typeof o.default_location === 'string' || o.default_location === null) out.default_location = o.default_location;
  if (typeof o.prices_converted_elsewhere === 'boolean') out.prices_converted_elsewhere = o.prices_converted_elsewhere;
  if (typeof o.recreate_deleted_products === 'boolean') out.recreate_deleted_products = o.recreate_deleted_products;
  const productType = record(o.product_type);
  if (productType?.source === 'first_category') out.product_type = { source: 'first_category' };
  else if (productType?.source === 'attribute' && typeof productType.attribute_code === 'string')
    out.product_type = { source: 'attribute', attribute_code: productType.attribute_code };
  const attrs = record(o.attribute_metafields);
  if (attrs) {
    const strings = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
    const keys = record(attrs.keys) ?? {};
    out.attribute_metafields = {
      enabled: attrs.enabled !== false,
      namespace: typeof attrs.namespace === 'string' && attrs.namespace ? attrs.namespace : DEFAULT_ATTRIBUTE_NAMESPACE,
      only: Array.isArray(attrs.only) ? strings(attrs.only) : null,
      exclude: strings(attrs.exclude),
      keys: Object.fromEntries(Object.entries(keys).filter((e): e is [string, string] => typeof e[1] === 'string')),
    };
  }
  return out;
}

/** A PIM attribute definition as the PIM's API answers it (GET /api/product-attributes). */
export interface PimAttributeDefinition {
  code: string;
  name: string;
  type: string;
  options: string[];
  /** The storefront metafield the attribute is (`namespace.key`, from a Shopify file's metafield column), if any. */
  metafield?: string | null;
}

/**
 * Namespaces the bridge never writes: `shopify` holds Shopify's category metafields, whose values are metaobject
 * references (https://shopify.dev/docs/apps/build/product-merchandising/product-taxonomy, category metafields) where
 * the PIM keeps the file's text. Such attributes stay in the PIM and its files.
 */
const NOT_WRITTEN_NAMESPACES = ['shopify'];

/** `namespace.key` → its parts; null when it is not one. */
function metafieldHome(metafield: string | null | undefined): { namespace: string; key: string } | null {
  const m = /^([^.]+)\.(.+)$/.exec(metafield ?? '');
  return m ? { namespace: m[1], key: m[2] } : null;
}

/**
 * The attributes a push writes as metafields: each synced attribute with its namespace and key (the Shopify type and
 * validations are the adapter's choice, storefront/shopify/attribute-metafields.ts).
 */
export function attributeSpecs(settings: IntegrationSettings, definitions: PimAttributeDefinition[]): NonNullable<SyncPlacement['attributeMetafields']> {
  const s = settings.attribute_metafields ?? DEFAULT_ATTRIBUTE_METAFIELDS;
  if (!s.enabled) return [];
  return definitions
    .filter((d) => !ATTRIBUTES_WITH_A_HOME.includes(d.code) && (s.only === null || s.only.includes(d.code)) && !s.exclude.includes(d.code))
    .flatMap((d) => {
      // An attribute that is a storefront metafield of its own goes there (the namespace is the merchant's too: only
      // that key is the bridge's); the others to the integration's namespace.
      const home = metafieldHome(d.metafield);
      if (home && NOT_WRITTEN_NAMESPACES.includes(home.namespace)) return [];
      const base = { code: d.code, name: d.name, pimType: d.type, options: d.options };
      return [home ? { ...base, ...home, home: true } : { ...base, namespace: s.namespace, key: s.keys[d.code] ?? d.code }];
    });
}

/** Each channel's publications as a push uses them: explicit ones, else the default found by title. */
export function channelPublications(
  settings: IntegrationSettings,
  publications: StorefrontPublication[],
): Record<string, { publications: StorefrontPublication[]; source: 'default' | 'custom' }> {
  const byId = new Map(publications.map((p) => [p.id, p]));
  const out: Record<string, { publications: StorefrontPublication[]; source: 'default' | 'custom' }> = {};
  for (const channel of PIM_CHANNELS) {
    const explicit = settings.channels?.[channel];
    if (explicit) {
      out[channel] = { publications: explicit.map((id) => byId.get(id) ?? { id, name: '(no longer in the shop)' }), source: 'custom' };
      continue;
    }
    const title = DEFAULT_CHANNEL_PUBLICATIONS[channel];
    const found = title ? publications.find((p) => p.name.toLowerCase() === title.toLowerCase()) : undefined;
    out[channel] = { publications: found ? [found] : [], source: 'default' };
  }
  return out;
}

/** The default location: the explicit one when it is still an active location, else the first active by name. */
export function defaultLocation(settings: IntegrationSettings, locations: StorefrontLocation[]): StorefrontLocation | null {
  const active = locations.filter((l) => l.isActive);
  if (settings.default_location === null) return null;
  const explicit = settings.default_location ? active.find((l) => l.id === settings.default_location) : undefined;
  return explicit ?? [...active].sort((a, b) => a.name.localeCompare(b.name))[0] ?? null;
}

/** Everything a push needs, resolved against the shop's current publications and locations. */
export function resolvePlacement(settings: IntegrationSettings, publications: StorefrontPublication[], locations: StorefrontLocation[]): SyncPlacement {
  const channels = channelPublications(settings, publications);
  const known = new Set(publications.map((p) => p.id));
  const activeLocations = new Set(locations.filter((l) => l.isActive).map((l) => l.id));
  const warehouseLocations: Record<string, string> = {};
  const unsynced: string[] = [];
  for (const [code, id] of Object.entries(settings.warehouses ?? {})) {
    if (id && activeLocations.has(id)) warehouseLocations[code] = id;
    else unsynced.push(code);
  }
  return {
    // A publication removed from the shop since it was mapped is skipped rather than failing every push.
    channelPublications: Object.fromEntries(Object.entries(channels).map(([c, v]) => [c, v.publications.map((p) => p.id).filter((id) => known.has(id))])),
    warehouseLocations,
    unsyncedWarehouses: unsynced,
    variantStockLocation: defaultLocation(settings, locations)?.id ?? null,
    pricesConvertedElsewhere: settings.prices_converted_elsewhere === true,
    recreateDeletedProducts: settings.recreate_deleted_products !== false,
    productType: settings.product_type?.source === 'attribute' ? { attributeCode: settings.product_type.attribute_code } : { attributeCode: null },
  };
}

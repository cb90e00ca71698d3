// How the bridge maps PIM data onto one shop, per integration (integrations.settings, jsonb), and its defaults:
// - PIM publishing channels → the shop's publications: `web` → Online Store, `mobile` → Shop, the other channels
//   unmapped, until the merchant maps a channel explicitly (GET/PUT /api/integration/channels);
// - PIM warehouses → the shop's locations: a warehouse goes to the location of the same name or code unless mapped
//   explicitly (to a location, or to null: not synced); variant stock (the PIM keeps it without a warehouse) and
//   unmatched warehouses go to the default location, explicit or else the first active location by name
//   (GET/PUT /api/integration/locations);
// - whether prices are converted by something else, which turns off the currency check (GET/PUT /api/integration/pricing).
import type { StorefrontLocation, StorefrontPublication, SyncPlacement } from '../../storefront/storefront.port.js';

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
}

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
  return out;
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
  };
}

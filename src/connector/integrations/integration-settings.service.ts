// The integration's bridge settings (integration-settings.ts): shown and changed through GET/PUT
// /api/integration/channels, /locations and /pricing against the shop's publications and locations read live, and
// resolved for each push against them as the storefront port caches them (a few minutes). A mapping to a publication or
// location the shop does not have is refused with VALIDATION_FAILED naming it, and nothing is saved.
import type { SyncPlacement } from '../../storefront/port/placement.js';
import type { StorefrontShop } from '../../storefront/port/shop.js';
import type { StorefrontPort } from '../../storefront/storefront.port.js';
import { StorefrontError } from '../../storefront/port/errors.js';
import { ConnectorError } from '../connector.errors.js';
import type { IntegrationRepository } from './integration.repository.js';
import {
  attributeSpecs,
  channelPublications,
  DEFAULT_ATTRIBUTE_METAFIELDS,
  defaultLocation,
  parseSettings,
  PIM_CHANNELS,
  resolvePlacement,
  type AttributeMetafieldSettings,
  type IntegrationSettings,
  type PimAttributeDefinition,
} from './integration-settings.js';
import type { IntegrationService } from './integration.service.js';
import { TtlCache } from '../../lib/ttl-cache.js';

/** The PIM's attribute definitions, read over its API (connector/pim/pim-client.ts). */
export interface PimAttributeReader {
  attributeDefinitions(conn: { baseUrl: string; apiKey: string }): Promise<PimAttributeDefinition[]>;
}

export interface ProductTypeInput {
  source: 'first_category' | 'attribute';
  attribute_code?: string | null;
}

export interface AttributesInput {
  enabled?: boolean;
  namespace?: string;
  only?: string[] | null;
  exclude?: string[];
  keys?: Record<string, string | null>;
}

/** Shopify: a namespace "3-255 characters … alphanumeric, hyphen, and underscore", a key 2-64 (schema 2026-10, MetafieldDefinitionInput). */
const NAMESPACE = /^[A-Za-z0-9_-]{3,255}$/;
const KEY = /^[A-Za-z0-9_-]{2,64}$/;
/** Namespaces the bridge cannot take for attributes: its own (pimbridge.pim_product_id…) and Shopify's reserved ones. */
const RESERVED_NAMESPACES = ['pimbridge', 'shopify', 'custom', '$app'];

export interface ChannelsInput {
  /** Channel → publication ids; null puts the channel back on its default. */
  channels: Record<string, string[] | null>;
}

export interface LocationsInput {
  /** Warehouse code → location id, null (not synced), or omitted; `"default"` restores the by-name default. */
  warehouses?: Record<string, string | null>;
  default_location?: string | null;
}

export class IntegrationSettingsService {
  constructor(
    private readonly repo: IntegrationRepository,
    private readonly integrations: Pick<IntegrationService, 'storefrontShopOf'>,
    private readonly storefront: Pick<StorefrontPort, 'publications' | 'locations'>,
    /** The PIM's attribute definitions (attribute metafields); without it no attribute is synced. */
    private readonly pim?: { reader: PimAttributeReader; connectionOf: IntegrationService['pimConnectionOf'] },
  ) {}

  /** Per integration, for a few seconds: a push reads the PIM's attribute definitions at most this often. */
  private readonly attributeCache = new TtlCache<PimAttributeDefinition[]>(30_000);

  /** The PIM's attribute definitions of the integration's account (cached 30 s); [] without a PIM reader. */
  async attributeDefinitions(integrationId: number, fresh = false): Promise<PimAttributeDefinition[]> {
    const pim = this.pim;
    if (!pim) return [];
    if (fresh) this.attributeCache.delete(String(integrationId));
    return this.attributeCache.get(String(integrationId), async () => {
      const conn = await pim.connectionOf(integrationId);
      if (!conn) throw new ConnectorError('AUTHENTICATION_FAILED', 'Invalid or revoked API token');
      return pim.reader.attributeDefinitions(conn);
    });
  }

  async settings(integrationId: number): Promise<IntegrationSettings> {
    return parseSettings(await this.repo.settings(integrationId));
  }

  /**
   * What a push of this integration needs, against the storefront the push uses (the shop's lists are cached by the
   * adapter).
   */
  async placement(
    integrationId: number,
    shop: StorefrontShop,
    storefront: Pick<StorefrontPort, 'publications' | 'locations'> = this.storefront,
  ): Promise<SyncPlacement> {
    const [settings, publications, locations] = await Promise.all([this.settings(integrationId), storefront.publications(shop), storefront.locations(shop)]);
    // The PIM's attribute definitions: unreadable now, no attribute metafield is written or removed by this push (the
    // shop's stay as they are), rather than failing products whose attributes did not change.
    const definitions = await this.attributeDefinitions(integrationId).catch(() => null);
    return {
      ...resolvePlacement(settings, publications, locations),
      ...(definitions ? { attributeMetafields: attributeSpecs(settings, definitions) } : {}),
    };
  }

  async productType(integrationId: number) {
    const setting = (await this.settings(integrationId)).product_type;
    return {
      source: setting?.source ?? 'first_category',
      attribute_code: setting?.source === 'attribute' ? setting.attribute_code : null,
      is_default: setting === undefined,
    };
  }

  async setProductType(integrationId: number, input: ProductTypeInput) {
    if (input.source === 'attribute') {
      if (!input.attribute_code) throw invalid("attribute_code is required when source is 'attribute'");
      const codes = (await this.pimAttributes(integrationId)).map((d) => d.code);
      if (!codes.includes(input.attribute_code)) throw invalid(`The PIM has no product attribute '${input.attribute_code}'`);
    } else if (input.attribute_code) throw invalid("attribute_code is only for source 'attribute'");
    const settings = await this.settings(integrationId);
    const product_type =
      input.source === 'attribute' ? { source: 'attribute' as const, attribute_code: input.attribute_code! } : { source: 'first_category' as const };
    await this.repo.saveSettings(integrationId, { ...settings, product_type });
    return this.productType(integrationId);
  }

  async attributes(integrationId: number) {
    const settings = await this.settings(integrationId);
    const s = settings.attribute_metafields ?? DEFAULT_ATTRIBUTE_METAFIELDS;
    const definitions = await this.pimAttributes(integrationId);
    const synced = new Map(attributeSpecs(settings, definitions).map((x) => [x.code, x]));
    return {
      enabled: s.enabled,
      namespace: s.namespace,
      only: s.only,
      exclude: s.exclude,
      keys: s.keys,
      is_default: settings.attribute_metafields === undefined,
      attributes: definitions.map((d) => {
        const spec = synced.get(d.code);
        return { code: d.code, name: d.name, type: d.type, synced: spec !== undefined, metafield: spec ? `${spec.namespace}.${spec.key}` : null };
      }),
    };
  }

  async setAttributes(integrationId: number, input: AttributesInput) {
    const settings = await this.settings(integrationId);
    const current = settings.attribute_metafields ?? DEFAULT_ATTRIBUTE_METAFIELDS;
    const namespace = input.namespace ?? current.namespace;
    if (!NAMESPACE.test(namespace)) throw invalid(`namespace '${namespace}': 3-255 letters, digits, hyphens or underscores (Shopify's rule)`);
    if (RESERVED_NAMESPACES.includes(namespace.toLowerCase()))
      throw invalid(`namespace '${namespace}' is reserved (${RESERVED_NAMESPACES.join(', ')}): choose one of the bridge's own, e.g. pimbridge_attr`);
    const keys: Record<string, string> = { ...current.keys };
    for (const [code, key] of Object.entries(input.keys ?? {})) {
      if (key === null) delete keys[code];
      else if (!KEY.test(key)) throw invalid(`keys.${code} '${key}': 2-64 letters, digits, hyphens or underscores (Shopify's rule)`);
      else keys[code] = key;
    }
    const codes = new Set((await this.pimAttributes(integrationId)).map((d) => d.code));
    const named = [...(input.only ?? []), ...(input.exclude ?? []), ...Object.keys(input.keys ?? {})];
    const unknown = [...new Set(named.filter((c) => !codes.has(c)))];
    if (unknown.length > 0) throw invalid(`The PIM has no product attribute ${unknown.map((c) => `'${c}'`).join(', ')}`);
    const next: AttributeMetafieldSettings = {
      enabled: input.enabled ?? current.enabled,
      namespace,
      only: input.only !== undefined ? (input.only === null ? null : [...new Set(input.only)]) : current.only,
      exclude: input.exclude !== undefined ? [...new Set(input.exclude)] : current.exclude,
      keys,
    };
    // Two attributes under one key would overwrite each other's metafield.
    const taken = new Map<string, string>();
    for (const code of codes) {
      const key = next.keys[code] ?? code;
      const other = taken.get(key);
      if (other !== undefined) throw invalid(`Attributes '${other}' and '${code}' would both be metafield ${namespace}.${key}`);
      taken.set(key, code);
    }
    await this.repo.saveSettings(integrationId, { ...settings, attribute_metafields: next });
    return this.attributes(integrationId);
  }

  /** The PIM's definitions read now; a PIM that cannot be read is CONNECTION_FAILED. */
  private async pimAttributes(integrationId: number): Promise<PimAttributeDefinition[]> {
    try {
      return await this.attributeDefinitions(integrationId, true);
    } catch (err) {
      if (err instanceof ConnectorError) throw err;
      throw new ConnectorError('CONNECTION_FAILED', `The PIM's product attributes could not be read: ${(err as Error).message}`);
    }
  }

  async channels(integrationId: number) {
    const [settings, shop] = await Promise.all([this.settings(integrationId), this.shop(integrationId)]);
    const publications = await this.live(() => this.storefront.publications(shop, { fresh: true }));
    const view = channelPublications(settings, publications);
    return {
      channels: PIM_CHANNELS.map((channel) => ({ channel, source: view[channel].source, publications: view[channel].publications })),
      available_publications: publications,
    };
  }

  async setChannels(integrationId: number, input: ChannelsInput) {
    const unknownChannels = Object.keys(input.channels).filter((c) => !(PIM_CHANNELS as readonly string[]).includes(c));
    if (unknownChannels.length > 0)
      throw invalid(`Unknown PIM channel ${unknownChannels.map((c) => `'${c}'`).join(', ')}: the channels are ${PIM_CHANNELS.join(', ')}`);
    const shop = await this.shop(integrationId);
    const publications = await this.live(() => this.storefront.publications(shop, { fresh: true }));
    const known = new Set(publications.map((p) => p.id));
    for (const [channel, ids] of Object.entries(input.channels)) {
      const missing = (ids ?? []).filter((id) => !known.has(id));
      if (missing.length > 0) throw invalid(`Channel '${channel}': the shop has no publication ${missing.map((m) => `'${m}'`).join(', ')}`);
    }
    const settings = await this.settings(integrationId);
    const channels = { ...settings.channels };
    for (const [channel, ids] of Object.entries(input.channels)) {
      if (ids === null) delete channels[channel];
      else channels[channel] = [...new Set(ids)];
    }
    await this.repo.saveSettings(integrationId, { ...settings, channels });
    return this.channels(integrationId);
  }

  async locations(integrationId: number) {
    const [settings, shop] = await Promise.all([this.settings(integrationId), this.shop(integrationId)]);
    const locations = await this.live(() => this.storefront.locations(shop, { fresh: true }));
    const byId = new Map(locations.map((l) => [l.id, l]));
    const fallback = defaultLocation(settings, locations);
    return {
      default_location: fallback ? { id: fallback.id, name: fallback.name } : null,
      default_location_source: settings.default_location !== undefined ? ('custom' as const) : ('default' as const),
      warehouses: Object.entries(settings.warehouses ?? {}).map(([code, id]) => ({
        code,
        location: id ? { id, name: byId.get(id)?.name ?? '(no longer in the shop)' } : null,
      })),
      available_locations: locations.map((l) => ({ id: l.id, name: l.name, is_active: l.isActive })),
    };
  }

  async setLocations(integrationId: number, input: LocationsInput) {
    const shop = await this.shop(integrationId);
    const locations = await this.live(() => this.storefront.locations(shop, { fresh: true }));
    const active = new Set(locations.filter((l) => l.isActive).map((l) => l.id));
    const check = (what: string, id: string | null | undefined) => {
      if (id && !active.has(id)) throw invalid(`${what}: the shop has no active location '${id}'`);
    };
    for (const [code, id] of Object.entries(input.warehouses ?? {})) check(`Warehouse '${code}'`, id);
    check('default_location', input.default_location);
    const settings = await this.settings(integrationId);
    const next: IntegrationSettings = { ...settings, warehouses: { ...settings.warehouses, ...input.warehouses } };
    if (input.default_location !== undefined) next.default_location = input.default_location;
    await this.repo.saveSettings(integrationId, next);
    return this.locations(integrationId);
  }

  async pricing(integrationId: number) {
    return { prices_converted_elsewhere: (await this.settings(integrationId)).prices_converted_elsewhere === true };
  }

  async setPricing(integrationId: number, input: { prices_converted_elsewhere: boolean }) {
    const settings = await this.settings(integrationId);
    await this.repo.saveSettings(integrationId, { ...settings, prices_converted_elsewhere: input.prices_converted_elsewhere });
    return this.pricing(integrationId);
  }

  private async shop(integrationId: number): Promise<StorefrontShop> {
    const shop = await this.integrations.storefrontShopOf(integrationId);
    if (!shop) throw new ConnectorError('AUTHENTICATION_FAILED', 'Invalid or revoked API token');
    return shop;
  }

  /** A live read of the shop; a shop that cannot be reached is CONNECTION_FAILED (503), not an internal error. */
  private async live<T>(read: () => Promise<T>): Promise<T> {
    try {
      return await read();
    } catch (err) {
      if (err instanceof StorefrontError) throw new ConnectorError('CONNECTION_FAILED', `The shop could not be read: ${err.message}`);
      throw err;
    }
  }
}

const invalid = (message: string) => new ConnectorError('VALIDATION_FAILED', message, 400);

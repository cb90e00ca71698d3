// The integration's bridge settings (integration-settings.ts): shown and changed through GET/PUT
// /api/integration/channels, /locations and /pricing against the shop's publications and locations read live, and
// resolved for each push against them as the storefront port caches them (a few minutes). A mapping to a publication or
// location the shop does not have is refused with VALIDATION_FAILED naming it, and nothing is saved.
import type { StorefrontPort, StorefrontShop, SyncPlacement } from '../../storefront/storefront.port.js';
import { StorefrontError } from '../../storefront/storefront.port.js';
import { ConnectorError } from '../connector.errors.js';
import type { IntegrationRepository } from './integration.repository.js';
import { channelPublications, defaultLocation, parseSettings, PIM_CHANNELS, resolvePlacement, type IntegrationSettings } from './integration-settings.js';
import type { IntegrationService } from './integration.service.js';

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
  ) {}

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
    return resolvePlacement(settings, publications, locations);
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

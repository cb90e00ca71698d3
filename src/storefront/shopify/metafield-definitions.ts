// The shop's metafield definitions the bridge relies on, decided or read once per shop and kept for the process: the
// unique definition of our `pimbridge.pim_product_id` (which says how a product without a mapping is found again), and
// the definitions of the attribute metafields a push writes, created where missing.
import { StorefrontError } from '../port/errors.js';
import type { AttributeMetafieldSpec } from '../port/placement.js';
import type { StorefrontShop } from '../port/shop.js';
import { definitionFor, type ShopMetafieldDefinition } from './attribute-metafields.js';
import {
  MetafieldDefinitionCapabilities,
  MetafieldDefinitionCreate,
  ProductMetafieldDefinitions,
  type MetafieldDefinitionCapabilitiesData,
  type MetafieldDefinitionCreateData,
  type ProductMetafieldDefinitionsData,
} from './operations.js';
import { METAFIELD_NAMESPACE, PIM_ID_KEY } from './tags-metafields-collections.js';

/**
 * How a product without a mapping is found again, always by our `pimbridge.pim_product_id` metafield: `customId` on the
 * shop's unique definition, or (a shop without one) a search by its value (product-identity.ts, findByPimId). Decided
 * once per shop (MetafieldDefinitions.identifierMode).
 */
export type IdentifierMode = 'customId' | 'metafieldSearch';

/** The calls the definitions are read and made with (ShopifyClient.call: the shop's throttle and retries). */
export interface DefinitionCaller {
  call<T>(shop: StorefrontShop, document: string, variables: Record<string, unknown>, expectedCost: number, options?: { signal?: AbortSignal }): Promise<T>;
}

export class MetafieldDefinitions {
  private readonly identifierModes = new Map<string, Promise<IdentifierMode>>();
  /**
   * The shop's PRODUCT metafield definitions per `domain namespace` (attribute metafields), by `namespace.key`: read once
   * per shop and namespace for the life of the process, and added to as the bridge creates them.
   */
  private readonly metafieldDefinitions = new Map<string, Promise<Map<string, ShopMetafieldDefinition>>>();

  constructor(private readonly client: DefinitionCaller) {}

  /**
   * `customId` when the shop has (or now gets) a unique-values definition for `pimbridge.pim_product_id`, else a search
   * by the metafield's value. Decided once per shop; a refused or unsupported definition falls back to the search.
   */
  identifierMode(shop: StorefrontShop, signal?: AbortSignal): Promise<IdentifierMode> {
    let mode = this.identifierModes.get(shop.domain);
    if (!mode) {
      mode = this.decideIdentifierMode(shop, signal);
      this.identifierModes.set(shop.domain, mode);
      mode.catch(() => this.identifierModes.delete(shop.domain));
    }
    return mode;
  }

  private async decideIdentifierMode(shop: StorefrontShop, signal?: AbortSignal): Promise<IdentifierMode> {
    try {
      const definition = { name: 'PIM product id', namespace: METAFIELD_NAMESPACE, key: PIM_ID_KEY, type: 'single_line_text_field', ownerType: 'PRODUCT' };
      const data = await this.client.call<MetafieldDefinitionCreateData>(
        shop,
        MetafieldDefinitionCreate,
        { definition: { ...definition, capabilities: { uniqueValues: { enabled: true } } } },
        12,
        { signal },
      );
      const payload = data.metafieldDefinitionCreate;
      if (payload?.createdDefinition) return 'customId';
      if (!payload?.userErrors.some((e) => e.code === 'TAKEN')) return 'metafieldSearch';
      // The definition exists: customId works only if it has unique values (it cannot be given them later).
      const existing = await this.client.call<MetafieldDefinitionCapabilitiesData>(
        shop,
        MetafieldDefinitionCapabilities,
        { identifier: { ownerType: 'PRODUCT', namespace: METAFIELD_NAMESPACE, key: PIM_ID_KEY } },
        3,
        { signal },
      );
      return existing.metafieldDefinition?.capabilities.uniqueValues.enabled ? 'customId' : 'metafieldSearch';
    } catch (err) {
      if (err instanceof StorefrontError && (err.kind === 'invalid_response' || err.kind === 'forbidden')) return 'metafieldSearch';
      throw err;
    }
  }

  /**
   * The shop's definitions of these attribute metafields, by `namespace.key`: the namespace read once (cached for the
   * process), the missing ones created (`TAKEN`: made meanwhile by someone else, read again). A definition the shop
   * refuses (a limit, a missing scope) is not retried in this process: its values go as metafields without a definition,
   * checked against the type we asked for.
   */
  async attributeDefinitions(shop: StorefrontShop, specs: AttributeMetafieldSpec[], signal?: AbortSignal): Promise<Map<string, ShopMetafieldDefinition>> {
    const out = new Map<string, ShopMetafieldDefinition>();
    for (const namespace of [...new Set(specs.map((s) => s.namespace))]) {
      let known = await this.namespaceDefinitions(shop, namespace, signal);
      for (const spec of specs.filter((s) => s.namespace === namespace && !known.has(`${namespace}.${s.key}`))) {
        const wanted = definitionFor(spec);
        let taken = false;
        try {
          const data = await this.client.call<MetafieldDefinitionCreateData>(
            shop,
            MetafieldDefinitionCreate,
            { definition: { name: wanted.name, namespace, key: wanted.key, type: wanted.type, ownerType: 'PRODUCT', validations: wanted.validations } },
            12,
            { signal },
          );
          taken = data.metafieldDefinitionCreate?.userErrors.some((e) => e.code === 'TAKEN') ?? false;
        } catch (err) {
          if (!(err instanceof StorefrontError && (err.kind === 'invalid_response' || err.kind === 'forbidden'))) throw err;
        }
        if (taken) {
          this.metafieldDefinitions.delete(`${shop.domain} ${namespace}`);
          known = await this.namespaceDefinitions(shop, namespace, signal);
        }
        if (!known.has(`${namespace}.${spec.key}`)) known.set(`${namespace}.${spec.key}`, wanted);
      }
      for (const [k, d] of known) out.set(k, d);
    }
    return out;
  }

  private namespaceDefinitions(shop: StorefrontShop, namespace: string, signal?: AbortSignal): Promise<Map<string, ShopMetafieldDefinition>> {
    const cacheKey = `${shop.domain} ${namespace}`;
    let found = this.metafieldDefinitions.get(cacheKey);
    if (!found) {
      found = this.readNamespaceDefinitions(shop, namespace, signal);
      this.metafieldDefinitions.set(cacheKey, found);
      found.catch(() => this.metafieldDefinitions.delete(cacheKey));
    }
    return found;
  }

  private async readNamespaceDefinitions(shop: StorefrontShop, namespace: string, signal?: AbortSignal): Promise<Map<string, ShopMetafieldDefinition>> {
    const map = new Map<string, ShopMetafieldDefinition>();
    let after: string | null = null;
    for (let page = 0; page < 20; page++) {
      // connection 2 + (definition 1 + type 1 + validations 1) × 11 + pageInfo 1.
      const data: ProductMetafieldDefinitionsData = await this.client.call<ProductMetafieldDefinitionsData>(
        shop,
        ProductMetafieldDefinitions,
        { namespace, after },
        36,
        { signal },
      );
      for (const d of data.metafieldDefinitions.nodes)
        map.set(`${d.namespace}.${d.key}`, {
          namespace: d.namespace,
          key: d.key,
          type: d.type.name,
          validations: d.validations.map((v) => ({ name: v.name, value: v.value ?? '' })),
        });
      if (!data.metafieldDefinitions.pageInfo.hasNextPage) break;
      after = data.metafieldDefinitions.pageInfo.endCursor;
    }
    return map;
  }
}

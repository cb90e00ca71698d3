// Every resolver module of the sandbox: the shop; products (productSet, productByIdentifier, product, products,
// productsCount, productVariant, productDelete, metafieldDefinitionCreate); locations; bulk mutations
// (stagedUploadsCreate, bulkOperationRunMutation, bulkOperation, currentBulkOperation); sales channels (publications,
// publication, publishablePublish, publishableUnpublish); a merchant's edits (productUpdate, productVariantsBulkUpdate);
// inventory (inventoryItem, nodes of inventory items, inventoryActivate, inventorySetQuantities, inventoryAdjustQuantities);
// webhooks (webhookSubscriptions, webhookSubscription, webhookSubscriptionCreate, webhookSubscriptionDelete); languages and
// translations (shopLocales, shopLocaleEnable/Update/Disable, translatableResource(s/ByIds), translationsRegister/Remove);
// custom collections (collectionCreate, collectionUpdate, collectionDelete, collection, collectionByIdentifier, collections);
// the calling app (currentAppInstallation); Shopify's product taxonomy (taxonomy, a subset).
import { bulkResolvers } from '../bulk-resolvers.js';
import { appResolvers } from './app.js';
import { collectionResolvers } from './collections.js';
import { inventoryResolvers } from './inventory.js';
import { locationResolvers } from './locations.js';
import { merchantEditResolvers } from './merchant-edits.js';
import { productResolvers } from './products.js';
import { publicationResolvers } from './publications.js';
import { shopResolvers } from './shop.js';
import { taxonomyResolvers } from './taxonomy.js';
import { translationResolvers } from './translations.js';
import type { ResolverModule, RootResolver } from './types.js';
import { webhookResolvers } from './webhooks.js';

const modules: ResolverModule[] = [
  shopResolvers,
  productResolvers,
  locationResolvers,
  bulkResolvers,
  publicationResolvers,
  merchantEditResolvers,
  inventoryResolvers,
  webhookResolvers,
  translationResolvers,
  collectionResolvers,
  appResolvers,
  taxonomyResolvers,
];

function merge(kind: 'query' | 'mutation'): Readonly<Record<string, RootResolver>> {
  const out: Record<string, RootResolver> = {};
  for (const m of modules) {
    for (const [name, fn] of Object.entries(m[kind] ?? {})) {
      if (out[name]) throw new Error(`sandbox resolver ${kind}.${name} is defined twice`);
      out[name] = fn;
    }
  }
  return Object.freeze(out);
}

export const queryRoot = merge('query');
export const mutationRoot = merge('mutation');

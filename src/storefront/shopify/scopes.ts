// The Admin API access scopes the bridge asks a shop for: one list, requested at install (the authorization code
// grant's `scope`), declared in shopify.app.toml for Shopify CLI, and compared with what the shop granted
// (currentAppInstallation.accessScopes) at connect and in GET /api/status. test/shopify-scopes.test.ts proves it
// complete: every document the adapter sends needs no scope outside it (the sandbox reads each field's required scope
// from Shopify's own schema). A `write_` scope implies its `read_` (shopify.dev/docs/api/usage/access-scopes).
export const SHOPIFY_SCOPES = [
  // productSet (its media and files included), productByIdentifier, metafield definitions, collections, bulk operations.
  'read_products',
  'write_products',
  // Variant stock per location (inventoryActivate, inventorySetQuantities, inventoryItem).
  'read_inventory',
  'write_inventory',
  // The shop's locations, where stock goes.
  'read_locations',
  // Sales channels (publications) and publishing products and collections on them.
  'read_publications',
  'write_publications',
  // Product translations (translatableResource, translationsRegister/Remove) and the shop's enabled locales.
  'read_translations',
  'write_translations',
  'read_locales',
] as const;

export type ShopifyScope = (typeof SHOPIFY_SCOPES)[number];

/** The scopes of `required` that `granted` lacks, a `write_` grant counting for its `read_`. */
export function missingScopes(granted: readonly string[], required: readonly string[] = SHOPIFY_SCOPES): string[] {
  const have = new Set(granted.map((s) => s.trim().toLowerCase()));
  for (const s of have) if (s.startsWith('write_')) have.add(`read_${s.slice('write_'.length)}`);
  return required.filter((s) => !have.has(s));
}

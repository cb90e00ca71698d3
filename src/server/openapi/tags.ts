// The document's tags, in reading order, each with what it groups. Every tag a route names must be listed here, spelt
// exactly as here (test: every operation's tags are in this list).
export const OPENAPI_TAGS: { name: string; description: string }[] = [
  { name: 'Health', description: 'Liveness and readiness probes for load balancers and orchestrators. Public: no credentials.' },
  {
    name: 'Console session',
    description:
      "The web console's sign-in: an API key and its secret exchanged for a session cookie. While signed in, the cookie stands for the organization's API key on the PIM routes and, with X-Integration-Id, on the connector routes; state-changing calls also send the session's X-CSRF-Token.",
  },
  // The PIM core API: X-API-KEY (or a console session), envelope {status: 1|0, data, error}.
  {
    name: 'Auth',
    description: 'Checking PIM credentials: an API key (X-API-KEY) together with its secret (X-API-SECRET), as the connector does before it connects a shop.',
  },
  {
    name: 'Products',
    description:
      "The PIM catalogue's products: list, read, create, change and archive them, their translations, and the search by image. PIM core API: an API key (X-API-KEY) or a console session, envelope {status, data, error}.",
  },
  { name: 'Variants', description: "A product's variants (SKU, price, stock, options), each with a SKU unique in the organization." },
  {
    name: 'Media',
    description: "A product's images, downloaded from a URL and stored once by content, and the public route that serves the stored files to storefronts.",
  },
  {
    name: 'Stock',
    description: "A product's stock per warehouse (its total stock is their sum) and the product lookup by barcode with its warehouse stock.",
  },
  {
    name: 'Warehouses',
    description: "The organization's warehouses, by code: the places whose stock levels are kept per product and synced to shop locations.",
  },
  {
    name: 'Categories',
    description: 'The category tree (at most 32 levels, siblings kept in order) and the assignment of products to categories.',
  },
  {
    name: 'Product attributes',
    description:
      "Definitions of the products' custom attributes (type, options, required, storefront metafield); a product's `attributes` are keyed by their code.",
  },
  { name: 'Channels', description: 'The publishing channels the organization uses (web, mobile, api, marketplace, social, email); web and mobile by default.' },
  { name: 'Brands', description: "The organization's brands, named on products (a brand is the shop's vendor)." },
  { name: 'Suppliers', description: "The organization's suppliers, named on products." },
  { name: 'VAT rates', description: "The organization's VAT rates (a percentage per country), named on products." },
  {
    name: 'Catalogue files',
    description: "The whole catalogue in and out as CSV, in Pimbridge's own format or Shopify's product CSV: imports run in the background, exports stream.",
  },
  { name: 'Organization', description: "The caller's organization and its catalogue defaults (the default currency)." },
  // The connector API: Authorization: Bearer <api_token> (or a console session with X-Integration-Id), envelope
  // {status, message, data, code}.
  {
    name: 'Integration',
    description:
      "Connector API: linking a storefront shop to a PIM account (an integration), changing its PIM connection, disconnecting it, and the console's own-store connection and list of integrations. Authenticated routes take a connector token (Authorization: Bearer) or a console session naming the integration in X-Integration-Id; envelope {status, message, data, code}.",
  },
  {
    name: 'Integration settings',
    description:
      'How the connector writes the catalogue to the shop: PIM channels to publications, warehouses to locations, the currency check, the product type and the attributes synced as metafields. Admin scope.',
  },
  { name: 'Tokens', description: "The integration's bearer tokens, each with the read, write or admin scope (admin ⊃ write ⊃ read). Admin scope." },
  {
    name: 'Status',
    description:
      "The health of an integration (the caller's own in detail, any one's from stored state in public), its sync logs, and the system's overall status.",
  },
  {
    name: 'Push and mappings',
    description: 'Pushing products from the PIM to the shop (or previewing a push), and the mappings between PIM products and shop products it records.',
  },
  { name: 'Full sync', description: 'Syncing the whole PIM catalogue to the shop in the background, and following its progress.' },
  {
    name: 'Adoption',
    description: "Linking the shop's existing products to PIM products (by metafield, SKU, barcode or handle) without writing to the shop.",
  },
  {
    name: 'Drift',
    description: "What changed in the shop since the bridge wrote it: full drift reports, and the merchant's edits reported by the shop's webhooks.",
  },
  { name: 'Collections', description: 'The custom collections the bridge makes in the shop for PIM categories.' },
  {
    name: 'Webhooks',
    description: "The shop's webhook subscriptions to the bridge, and what a product deleted in the shop becomes. Admin scope.",
  },
  {
    name: 'Admin',
    description:
      "The operator's API: organizations, their API keys, the storefront shops the connector may connect, and sandbox stores. Bearer ADMIN_TOKEN; plain JSON, errors as {error}.",
  },
];

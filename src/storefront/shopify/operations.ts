// Every GraphQL document the Shopify adapter sends, as named constants, with the types of their answers: written in
// operations/ by topic and all re-exported here. test/shopify-operations.test.ts validates each document exported here
// against the real Admin API 2026-10 schema, deprecations included: a new file in operations/ must be added below
// (all but operations/fragments.ts, the selections the documents share, which holds parts of documents).
export * from './operations/shop.js';
export * from './operations/products.js';
export * from './operations/publications.js';
export * from './operations/inventory.js';
export * from './operations/bulk.js';
export * from './operations/bulk-queries.js';
export * from './operations/preview.js';
export * from './operations/taxonomy.js';
export * from './operations/webhooks.js';
export * from './operations/collections.js';
export * from './operations/translations.js';

// The scopes the bridge asks a shop for (SHOPIFY_SCOPES) are exactly the ones its GraphQL documents need, as Shopify's
// own 2026-10 schema says field by field (the sandbox's access table, sandbox/access-scopes.ts): none of the
// adapter's fields would be refused with ACCESS_DENIED under the list, and no scope of the list is asked for nothing.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { deniedFields, impliedScopes, requiredScopes } from '../src/sandbox/access-scopes.js';
import * as operations from '../src/storefront/shopify/operations.js';
import { missingScopes, SHOPIFY_SCOPES } from '../src/storefront/shopify/scopes.js';

const documents = (Object.values(operations) as unknown[]).filter((v): v is string => typeof v === 'string');

describe('Shopify access scopes', () => {
  it('cover every field of every document the adapter sends', () => {
    assert.ok(documents.length > 30);
    assert.deepEqual(deniedFields(documents, SHOPIFY_SCOPES), []);
  });

  it('ask for nothing the documents do not need', () => {
    const needed = requiredScopes(documents);
    const covered = impliedScopes([...needed]);
    assert.deepEqual(
      SHOPIFY_SCOPES.filter((s) => !covered.has(s)),
      [],
    );
  });

  it('without one of them, a document is refused and the missing scope is named', () => {
    const granted = SHOPIFY_SCOPES.filter((s) => s !== 'write_publications' && s !== 'read_publications');
    const denied = deniedFields(documents, granted);
    assert.ok(denied.some((d) => d.field === 'Mutation.publishablePublish'));
    assert.deepEqual(missingScopes(granted), ['read_publications', 'write_publications']);
    // A write scope counts for its read.
    assert.deepEqual(
      missingScopes(['write_products']),
      SHOPIFY_SCOPES.filter((s) => s !== 'read_products' && s !== 'write_products'),
    );
  });
});

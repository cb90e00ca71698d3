// The sandbox's cost calculator (sandbox/cost.ts) against the notes' model and Shopify's one public data point.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { getOperationAST, parse } from 'graphql';
import { adminSchema } from '../src/storefront/shopify/admin-schema.js';
import { actualQueryCost, connectionMultiplier, requestedQueryCost } from '../src/sandbox/cost.js';
import { ShopHealth } from '../src/storefront/shopify/operations.js';

function cost(query: string, variables: Record<string, unknown> = {}): number {
  const doc = parse(query);
  return requestedQueryCost(adminSchema(), doc, getOperationAST(doc)!, variables);
}

describe('sandbox query cost', () => {
  it("Shopify's live data point: variants(first: 250) with inventoryItem costs 25", () => {
    // 1 (product) + 2 + (1 variant + 1 inventoryItem) × floor(2·ln 250) = 1 + 2 + 2 × 11
    assert.equal(cost('query { product(id: "gid://shopify/Product/1") { variants(first: 250) { nodes { inventoryItem { id tracked } } } } }'), 25);
  });

  it('connection multiplier is floor(2·ln(max(2, n))) with n capped at 250', () => {
    assert.deepEqual([0, 1, 2, 3, 10, 100, 250, 1000].map(connectionMultiplier), [1, 1, 1, 2, 4, 9, 11, 11]);
  });

  it('scalars and enums are free, objects cost 1', () => {
    assert.equal(cost('{ shop { id name currencyCode } }'), 1);
    assert.equal(cost(ShopHealth), 5); // shop, plan, resourceLimits, currentAppInstallation, accessScopes
  });

  it('a path selected twice (directly or through fragments) is charged once; an alias is another path', () => {
    assert.equal(cost('{ shop { plan { shopifyPlus } plan { publicDisplayName } ...F } } fragment F on Shop { plan { partnerDevelopment } }'), 2);
    assert.equal(cost('{ a: shop { id } b: shop { id } }'), 2);
  });

  it('edges are free inside a connection, node counts; pageInfo is free; first comes from variables', () => {
    assert.equal(cost('{ products(first: 10) { edges { cursor node { id } } pageInfo { hasNextPage } } }'), 2 + 1 * 4);
    assert.equal(cost('query ($n: Int) { products(first: $n) { nodes { id } } }', { n: 100 }), 2 + 1 * 9);
    assert.equal(cost('{ products(last: 3) { nodes { id } } }'), 2 + 1 * 2);
  });

  it('an interface costs the maximum over its possible types', () => {
    // node: 1 + max(Product: variants 2 + 1 × floor(2 ln 5) = 5, other types 0)
    assert.equal(cost('{ node(id: "gid://shopify/Product/1") { id ... on Product { variants(first: 5) { nodes { id } } } ... on Collection { title } } }'), 6);
  });

  it('a mutation costs 10 plus its payload selection', () => {
    assert.equal(cost('mutation { productDelete(input: { id: "gid://shopify/Product/1" }) { deletedProductId userErrors { field message } } }'), 11);
  });

  it('nested connections multiply', () => {
    // inventoryLevels 2 + 1×11 = 13; inventoryItem 14; variant 15; variants 2 + 15×11 = 167; product 168; products 2 + 168×11
    assert.equal(
      cost('{ products(first: 250) { nodes { variants(first: 250) { nodes { inventoryItem { inventoryLevels(first: 250) { nodes { id } } } } } } } }'),
      1850,
    );
  });

  it('the actual cost counts what was returned', () => {
    const doc = parse('{ shop { id } products(first: 250) { nodes { id } } }');
    const op = getOperationAST(doc)!;
    assert.equal(requestedQueryCost(adminSchema(), doc, op), 1 + 2 + 11);
    assert.equal(actualQueryCost(adminSchema(), doc, op, { shop: { id: 'x' }, products: { nodes: [{ id: 'a' }, { id: 'b' }, { id: 'c' }] } }), 1 + 2 + 1 * 2);
    assert.equal(actualQueryCost(adminSchema(), doc, op, { shop: null, products: { nodes: [] } }), 0 + 2 + 0);
  });
});

// Every GraphQL document the Shopify adapter sends validates against Shopify's real Admin API 2026-10 schema, with no
// deprecated field or argument; and the committed schema is the published package's file, byte for byte.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { NoDeprecatedCustomRule, parse, specifiedRules, validate } from 'graphql';
import { connectionCount, prepareBulkMutation } from '../src/sandbox/bulk-runner.js';
import { adminSchema, adminSchemaFile } from '../src/storefront/shopify/admin-schema.js';
import * as operations from '../src/storefront/shopify/operations.js';
import * as fragments from '../src/storefront/shopify/operations/fragments.js';

const documents = (Object.entries(operations) as [string, unknown][]).filter((e): e is [string, string] => typeof e[1] === 'string');

describe('Shopify adapter operations', () => {
  it('exports at least the shop health check', () => {
    assert.ok(documents.some(([name]) => name === 'ShopHealth'));
  });

  for (const [name, text] of documents) {
    it(`${name} is valid against Admin API 2026-10`, () => {
      const document = parse(text);
      assert.deepEqual(
        validate(adminSchema(), document).map((e) => e.message),
        [],
      );
      const op = document.definitions.find((d) => d.kind === 'OperationDefinition');
      assert.equal(op && 'name' in op ? op.name?.value : undefined, name, 'the operation is named like its constant');
    });

    it(`${name} uses no deprecated field, argument or enum value`, () => {
      assert.deepEqual(
        validate(adminSchema(), parse(text), [NoDeprecatedCustomRule]).map((e) => e.message),
        [],
      );
    });
  }

  it('every shared fragment (operations/fragments.ts) is one fragment of its own name, spread by some document', () => {
    for (const [name, text] of Object.entries(fragments)) {
      const [definition, ...rest] = parse(text).definitions;
      assert.ok(definition.kind === 'FragmentDefinition' && rest.length === 0, name);
      assert.equal(definition.name.value, name);
      assert.ok(
        documents.some(([, d]) => d.includes(`...${name}\n`)),
        `no document spreads ${name}`,
      );
    }
  });

  it('the bulk documents under a tag of their own (bulkTagged) are valid too; a tag that is not a name part is refused', () => {
    for (const [document, name] of [
      [operations.ProductSetBulk, 'ProductSetBulk'],
      [operations.PublishablePublish, 'PublishablePublish'],
    ]) {
      const text = operations.bulkTagged(document, '00ff00ff00ff00ff');
      assert.deepEqual(
        validate(adminSchema(), parse(text), [...specifiedRules, NoDeprecatedCustomRule]).map((e) => e.message),
        [],
      );
      assert.match(text, new RegExp(`mutation ${name}_00ff00ff00ff00ff\\(`));
    }
    assert.throws(() => operations.bulkTagged(operations.ProductSetBulk, 'x) { shop { id } }'), /not a GraphQL name part/);
  });

  it('the bulk documents select one connection at most, as bulkOperationRunMutation requires (and they run in the sandbox)', () => {
    for (const document of [operations.ProductSetBulk, operations.PublishablePublish]) {
      const parsed = parse(document);
      const op = parsed.definitions.find((d) => d.kind === 'OperationDefinition');
      assert.ok(op && op.kind === 'OperationDefinition');
      assert.ok(connectionCount(parsed, op) <= 1, document);
      assert.ok(!('error' in prepareBulkMutation(document)), document);
    }
  });

  it("the bulk queries (the catalogue, our products) pass Shopify's bulk query rules (the sandbox's check), tagged or not", async () => {
    const { prepareBulkQuery } = await import('../src/sandbox/bulk-query-runner.js');
    for (const text of [operations.CatalogueProducts, operations.OurProducts].flatMap((d) => [d, operations.bulkTagged(d, '00ff00ff00ff00ff')])) {
      const prepared = prepareBulkQuery(text, false);
      assert.ok(!('errors' in prepared), JSON.stringify('errors' in prepared ? prepared.errors : null));
      assert.deepEqual(
        validate(adminSchema(), parse(text), [...specifiedRules, NoDeprecatedCustomRule]).map((e) => e.message),
        [],
      );
    }
    assert.match(operations.bulkTagged(operations.CatalogueProducts, 'abc'), /query CatalogueProducts_abc \{/);
    // Our identifier metafield, as the mapper writes it.
    for (const d of [operations.CatalogueProducts, operations.OurProducts]) assert.match(d, /metafield\(namespace: "pimbridge", key: "pim_product_id"\)/);
  });

  it('the deprecation check does catch a deprecated field (plan.displayName)', () => {
    const errors = validate(adminSchema(), parse('query { shop { plan { displayName } } }'), [NoDeprecatedCustomRule]);
    assert.match(errors[0]?.message ?? '', /ShopPlan\.displayName is deprecated/);
  });

  it("the committed schema is @shopify/dev-mcp's file (scripts/update-shopify-schema.mjs --check compares it with the registry)", () => {
    const source = JSON.parse(readFileSync(path.join(path.dirname(adminSchemaFile), 'source.json'), 'utf8'));
    assert.equal(source.package, '@shopify/dev-mcp');
    assert.equal(source.file, `dist/data/${path.basename(adminSchemaFile)}`);
    assert.equal(createHash('sha256').update(readFileSync(adminSchemaFile)).digest('hex'), source.sha256);
  });
});

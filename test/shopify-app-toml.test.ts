// shopify.app.toml (Shopify CLI's app configuration) declares what the code does: the scopes are SHOPIFY_SCOPES, the
// redirect URL is the install's callback, the webhook subscriptions are the topics the receiver acts on at the adapter's
// API version, with the three mandatory compliance topics.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { parse } from 'smol-toml';
import { CALLBACK_PATH, INSTALL_PATH } from '../src/connector/shop-auth/install.routes.js';
import { COMPLIANCE_TOPICS, WEBHOOK_PATH, WEBHOOK_TOPICS } from '../src/connector/webhooks/webhook.service.js';
import { ADMIN_API_VERSION } from '../src/storefront/shopify/api-version.js';
import { SHOPIFY_SCOPES } from '../src/storefront/shopify/scopes.js';

const toml = parse(readFileSync(path.join(import.meta.dirname, '..', 'shopify.app.toml'), 'utf8')) as any;

describe('shopify.app.toml', () => {
  it('requests exactly the scopes of the code', () => {
    assert.deepEqual(String(toml.access_scopes.scopes).split(','), [...SHOPIFY_SCOPES]);
  });

  it('points Shopify at the install and its callback', () => {
    assert.equal(new URL(toml.application_url).pathname, INSTALL_PATH);
    assert.deepEqual(
      toml.auth.redirect_urls.map((u: string) => new URL(u).pathname),
      [CALLBACK_PATH],
    );
    assert.equal(toml.embedded, false);
  });

  it('subscribes the receiver to the topics it acts on, the compliance topics included, at the adapter API version', () => {
    assert.equal(toml.webhooks.api_version, ADMIN_API_VERSION);
    const subscriptions = toml.webhooks.subscriptions as { topics?: string[]; compliance_topics?: string[]; uri: string }[];
    for (const s of subscriptions) assert.equal(new URL(s.uri).pathname, WEBHOOK_PATH);
    const topics = subscriptions.flatMap((s) => s.topics ?? []);
    const compliance = subscriptions.flatMap((s) => s.compliance_topics ?? []);
    assert.deepEqual([...topics, ...compliance].sort(), [...WEBHOOK_TOPICS].sort());
    assert.deepEqual(compliance.sort(), [...COMPLIANCE_TOPICS].sort());
  });
});

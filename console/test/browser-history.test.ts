// A product's history in the console, end to end in headless Chromium against a real server (helpers/browser.ts): edit
// a price, see the change in the product's History (when, who, old → new), restore the earlier version after a
// confirmation, and see the old price back in the form and through the API; a variant's changes by its SKU. axe finds
// nothing at 1280 and 390 px.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { type ConsoleHarness, consoleHarness, watchErrors } from './helpers/browser.ts';

describe("a product's history in the console", () => {
  let c: ConsoleHarness;
  let page: Page;
  let errors: string[];
  let productId: number;
  const details = () => page.getByRole('form', { name: 'Details' });
  const history = () => page.getByRole('region', { name: 'History' });
  const price = async () => (await c.h.as(c.tenant)('GET', `/api/products/${productId}`)).json().data.price;

  before(async () => {
    c = await consoleHarness();
    const created = await c.h.as(c.tenant)('POST', '/api/products', { name: 'Harbour Lantern', sku: 'HIST-LANTERN', price: '120.00' });
    assert.equal(created.statusCode, 201, created.body);
    productId = created.json().data.id;
    ({ page } = await c.newPage());
    errors = watchErrors(page);
    await page.goto('/products');
    await c.signIn(page);
    await page.goto(`/products/${productId}`);
  });

  after(async () => {
    await c?.close();
  });

  it('shows a price edited in the console in the History: when, who, old → new', async () => {
    await history().getByText('Created', { exact: true }).waitFor();
    await details()
      .getByLabel(/^Price \(/)
      .fill('99.50');
    await page.getByRole('region', { name: 'Unsaved changes' }).getByRole('button', { name: 'Save', exact: true }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /^Saved\.$/ })
      .waitFor();
    assert.equal(await price(), '99.5000');

    const newest = history().locator('li.history-entry').first();
    await newest.getByText('Price:').waitFor();
    assert.match(String(await newest.textContent()), /Price:\s*120\.00\s*→\s*(changed to)?\s*99\.50/);
    assert.match(String(await newest.textContent()), /The console \(signed in with key/);
    assert.match(String(await newest.textContent()), /Current version/);
    await history().scrollIntoViewIfNeeded();
    await c.shot(page, 'history-1280');
    assert.deepEqual(await c.axe(page), []);
  });

  it('restores the earlier version after a confirmation, and the old price is back', async () => {
    const created = history().locator('li.history-entry').filter({ hasText: 'Created' });
    await created.getByRole('button', { name: 'Restore this version' }).click();
    const ask = page.getByRole('dialog', { name: /Restore the version of/ });
    await ask.waitFor();
    assert.match(String(await ask.textContent()), /Variants, stock per warehouse, translations and images stay as they are/);
    // Cancelling changes nothing.
    await ask.getByRole('button', { name: 'Cancel' }).click();
    assert.equal(await price(), '99.5000');

    await created.getByRole('button', { name: 'Restore this version' }).click();
    await ask.getByRole('button', { name: 'Restore this version' }).click();
    await history()
      .getByRole('status')
      .filter({ hasText: /is restored/ })
      .waitFor();
    assert.equal(await price(), '120.0000');
    assert.equal(
      await details()
        .getByLabel(/^Price \(/)
        .inputValue(),
      '120.00',
    );
    const newest = history().locator('li.history-entry').first();
    await newest.getByText('Restored an earlier version').waitFor();
    assert.match(String(await newest.textContent()), /Price:\s*99\.50[\s\S]*120\.00/);

    await history().scrollIntoViewIfNeeded();
    await c.shot(page, 'history-restored-1280');
    assert.deepEqual(await c.axe(page), []);
    await page.setViewportSize({ width: 390, height: 844 });
    await history().scrollIntoViewIfNeeded();
    await c.shot(page, 'history-390');
    assert.deepEqual(await c.axe(page), []);
    await page.setViewportSize({ width: 1280, height: 800 });
    assert.deepEqual(errors, []);
  });

  it("shows a variant's changes by its SKU: added, its price, its stock in a warehouse", async () => {
    const call = c.h.as(c.tenant);
    const variant = (await call('POST', `/api/products/${productId}/variants`, { sku: 'HIST-LANTERN-S', name: 'Small', price: '120.00' })).json().data;
    assert.equal((await call('PATCH', `/api/products/${productId}/variants/${variant.id}`, { price: '125.00' })).statusCode, 200);
    const warehouse = (await call('POST', '/api/warehouses', { code: 'HARBOUR', name: 'Harbour' })).json().data;
    const level = await call('PUT', `/api/products/${productId}/variants/${variant.id}/stock`, { warehouse_id: warehouse.id, quantity: 6 });
    assert.equal(level.statusCode, 200, level.body);
    await page.reload();
    const entries = history().locator('li.history-entry');
    await entries.first().getByText('Variant HIST-LANTERN-S · Stock in HARBOUR:').waitFor();
    assert.match(String(await entries.nth(0).textContent()), /Stock:\s*0\s*→\s*(changed to)?\s*6/);
    assert.match(String(await entries.nth(1).textContent()), /Variant HIST-LANTERN-S · Price:\s*120\.00\s*→\s*(changed to)?\s*125\.00/);
    assert.match(String(await entries.nth(2).textContent()), /Variant HIST-LANTERN-S:\s*added/);
    await history().scrollIntoViewIfNeeded();
    await c.shot(page, 'history-variants-1280');
    assert.deepEqual(await c.axe(page), []);
    assert.deepEqual(errors, []);
  });
});

// A product's history in the console, end to end in headless Chromium against a real server (helpers/browser.ts): edit
// a price, see the change in the product's History (when, who, old → new), restore the earlier version after a
// confirmation, and see the old price back in the form and through the API. axe finds nothing at 1280 and 390 px.
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
});

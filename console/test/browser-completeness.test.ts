// Completeness in a real browser (helpers/browser.ts): an attribute made required for the Web channel on the Attributes
// page drops a product's score in the product list, and the product editor's checklist names it; filled in, the score
// is 100 %. Then a language on the Organization page: the checklist asks for the translation; translated, 100 % again.
// Each page is screenshotted at 1280 and 390 px (test-output/console/completeness-*.png) and checked with axe.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { until } from '../../test/helpers/until.ts';
import { type ConsoleHarness, consoleHarness, watchErrors } from './helpers/browser.ts';

describe('completeness in the console', () => {
  let c: ConsoleHarness;
  let page: Page;
  let errors: string[];
  let productId: number;

  /** The score the product list's cell shows for the product (its data-score; null while it has none). */
  const listScore = (id: number) => page.locator(`tr:has(a[href="/products/${id}"]) .completeness-score`);
  const api = () => c.h.as(c.tenant);
  /** Screenshots at 1280 and 390 px, axe clean at both. */
  const shots = async (name: string) => {
    await c.shot(page, `completeness-${name}`);
    assert.deepEqual(await c.axe(page), []);
    await page.setViewportSize({ width: 390, height: 844 });
    await c.shot(page, `completeness-${name}-phone`);
    assert.deepEqual(await c.axe(page), []);
    await page.setViewportSize({ width: 1280, height: 800 });
  };
  const checklist = () => page.getByRole('region', { name: 'Completeness' });
  /** The product page's save bar: saves every edit of the page at once. */
  const saveAll = () => page.getByRole('region', { name: 'Unsaved changes' }).getByRole('button', { name: 'Save', exact: true }).click();

  before(async () => {
    c = await consoleHarness();
    ({ page } = await c.newPage());
    errors = watchErrors(page);
    const attribute = await api()('POST', '/api/product-attributes', { code: 'material', name: 'Material', type: 'text' });
    assert.equal(attribute.statusCode, 201, attribute.body);
    const product = await api()('POST', '/api/products', {
      name: 'Harbour Rain Jacket',
      sku: 'COMPLETE-JACKET',
      description: 'A jacket for the rain',
      publishing_channels: ['web'],
    });
    assert.equal(product.statusCode, 201, product.body);
    productId = product.json().data.id;
    await page.goto('/products');
    await c.signIn(page);
    await page.waitForURL((u) => u.pathname === '/products');
  });

  after(async () => {
    await c?.close();
  });

  it('a product that lacks nothing its channel needs is 100 % in the list', async () => {
    await page.getByRole('columnheader', { name: 'Complete' }).waitFor();
    await listScore(productId)
      .filter({ hasText: /^100 %/ })
      .waitFor();
  });

  it('makes Material required on Web on the Attributes page', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Attributes' }).click();
    await page.waitForURL((u) => u.pathname === '/attributes');
    await page.getByRole('button', { name: 'Edit Material' }).click();
    const channels = page.getByRole('group', { name: 'Needed to be complete on' });
    await channels.getByRole('checkbox', { name: 'Web' }).check();
    await page.getByRole('button', { name: 'Save attribute' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved the attribute Material.' }).waitFor();
    await page.getByRole('cell', { name: 'On Web' }).waitFor();
    const stored = (await api()('GET', '/api/product-attributes')).json().data.attributes[0];
    assert.deepEqual(stored.required_channels, ['web']);
    await shots('attributes');
  });

  it("the product's score drops in the list, and its checklist names the attribute", async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Products' }).click();
    await page.waitForURL((u) => u.pathname === '/products');
    await listScore(productId).filter({ hasText: /^0 %/ }).waitFor();
    assert.match((await listScore(productId).getAttribute('title')) ?? '', /1 missing on Web/);
    await shots('list');

    await page.getByRole('link', { name: 'Harbour Rain Jacket' }).click();
    await page.waitForURL((u) => u.pathname === `/products/${productId}`);
    const web = checklist().getByRole('region', { name: 'Web: 0 % complete' });
    await web.getByText('Material is empty').waitFor();
    await shots('editor');
  });

  it('fills the attribute from the checklist: 100 %', async () => {
    await checklist().getByRole('button', { name: 'Fill in Material' }).click();
    const details = page.getByRole('form', { name: 'Details' });
    const material = details.getByLabel('Material', { exact: true });
    await until('the Material field focused', () => material.evaluate((el) => el === document.activeElement));
    await material.fill('Waxed cotton');
    await saveAll();
    await checklist().getByRole('region', { name: 'Web: 100 % complete' }).waitFor();
    await checklist().getByText('Nothing missing (1 of 1).').waitFor();
    assert.equal((await api()('GET', `/api/products/${productId}/completeness`)).json().data.score, 100);
  });

  it('a language on the Organization page asks for the translation; translated, 100 % again', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Organization' }).click();
    await page.waitForURL((u) => u.pathname === '/lists/organization');
    const languages = page.getByLabel('Translate into');
    await languages.fill('de, German');
    await page.getByRole('button', { name: 'Save languages' }).click();
    await page.getByText('“German” is not a language code such as de or fr-CA').waitFor();
    assert.deepEqual((await api()('GET', '/api/organization')).json().data.languages, [], 'nothing was sent');
    await languages.fill('de');
    await page.getByRole('button', { name: 'Save languages' }).click();
    await page.getByRole('status').filter({ hasText: 'Languages saved: German (de).' }).waitFor();
    assert.deepEqual((await api()('GET', '/api/organization')).json().data.languages, ['de']);
    await shots('organization');

    await page.goto(`/products/${productId}`);
    const web = checklist().getByRole('region', { name: 'Web: 33 % complete' });
    await web.getByText('the name and the description not translated').waitFor();
    await shots('editor-language');
    await checklist().getByRole('button', { name: 'Translate into de' }).click();
    const translations = page.getByRole('form', { name: 'Translations' });
    // The button opens a new translation in that language, its name ready to type.
    assert.equal(await translations.getByLabel('Language code').inputValue(), 'de');
    assert.equal(await page.evaluate('document.activeElement?.labels?.[0]?.textContent ?? null'), 'Translated name');
    await translations.getByLabel('Translated name').fill('Hafen-Regenjacke');
    await translations.getByLabel('Translated description').fill('Eine Jacke für den Regen');
    await saveAll();
    await checklist().getByRole('region', { name: 'Web: 100 % complete' }).waitFor();
    await checklist().getByRole('region', { name: 'Web: 100 % complete' }).scrollIntoViewIfNeeded();
    await shots('editor-complete');

    await page.getByRole('link', { name: 'All products' }).click();
    await listScore(productId)
      .filter({ hasText: /^100 %/ })
      .waitFor();
    assert.deepEqual(errors, []);
  });
});

// What a merchant does in the console, end to end in headless Chromium against a real server (helpers/browser.ts):
// create a product with a variant, change its price and see it reach the sandbox shop; make a product fail the
// bridge's pre-flight and read the reason on the mappings page (and in a push's preview), fix it and push it again;
// preview a push of a product the merchant renamed in the shop, and find it in a drift report; move a category; sign out.
// Every step goes through the page; the test reads the results back through the APIs and the shop's GraphQL.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { type ConsoleHarness, consoleHarness } from './helpers/browser.ts';

describe('a merchant in the console', () => {
  let c: ConsoleHarness;
  let page: Page;
  let productId: number;

  /** The product's mapping as the connector answers it (null before the first push). */
  const mapping = async (id: number) => {
    const res = await c.h.call('GET', `/api/products/mapping/${id}`, c.connectorToken);
    return res.statusCode === 404 ? null : res.json().data;
  };
  /** The shop's copy of a mapped product, read through the sandbox's Admin GraphQL. */
  const shopProduct = async (storefrontProductId: number) =>
    (
      await c.sandboxGraphql('query ($id: ID!) { product(id: $id) { title variants(first: 10) { nodes { sku price } } } }', {
        id: `gid://shopify/Product/${storefrontProductId}`,
      })
    ).product;
  const details = () => page.getByRole('form', { name: 'Details' });

  before(async () => {
    c = await consoleHarness();
    ({ page } = await c.newPage());
    await page.goto('/products');
    await c.signIn(page);
    await page.waitForURL((u) => u.pathname === '/products');
  });

  after(async () => {
    await c?.close();
  });

  it('creates a product with a variant', async () => {
    await page
      .getByRole('link', { name: 'New product' })
      .or(page.getByRole('button', { name: 'New product' }))
      .first()
      .click();
    await page.waitForURL((u) => u.pathname === '/products/new');
    await details().getByLabel('Name', { exact: true }).fill('Harbour Rain Jacket');
    await details().getByLabel('SKU', { exact: true }).fill('FLOW-JACKET');
    await details()
      .getByLabel(/^Price \(/)
      .fill('120.00');
    await details().getByRole('button', { name: 'Create product' }).click();
    await page.waitForURL((u) => /^\/products\/\d+$/.test(u.pathname));
    productId = Number(new URL(page.url()).pathname.split('/').pop());

    const add = page.getByRole('form', { name: 'Add a variant' });
    await add.getByLabel('SKU', { exact: true }).fill('FLOW-JACKET-M');
    await add.getByLabel('Name', { exact: true }).fill('Harbour Rain Jacket / M');
    await add.getByLabel(/^Price \(/).fill('120.00');
    await add.getByLabel('Options').fill('Size: M');
    await add.getByRole('button', { name: 'Add variant' }).click();
    await page
      .getByRole('form', { name: /^Variant .*FLOW-JACKET-M|^Variant .*Harbour Rain Jacket \/ M/ })
      .first()
      .waitFor();
    await c.shot(page, 'flow-product-created');

    const stored = c.h.as(c.tenant);
    const product = (await stored('GET', `/api/products/${productId}`)).json().data;
    assert.equal(product.name, 'Harbour Rain Jacket');
    assert.equal(product.price, '120.0000');
    const variants = (await stored('GET', `/api/products/${productId}/variants`)).json().data;
    const list = Array.isArray(variants) ? variants : variants.variants;
    assert.deepEqual(
      list.map((v: { sku: string; attributes: { attribute_name: string; value: string }[] }) => [v.sku, v.attributes]),
      [['FLOW-JACKET-M', [{ attribute_name: 'Size', value: 'M' }]]],
    );
  });

  it('edits the price, pushes, and the sandbox shop has the new price', async () => {
    await details()
      .getByLabel(/^Price \(/)
      .fill('99.50');
    await details().getByRole('button', { name: 'Save details' }).click();
    await page.getByRole('status').filter({ hasText: /saved/i }).first().waitFor();
    assert.equal((await c.h.as(c.tenant)('GET', `/api/products/${productId}`)).json().data.price, '99.5000');

    await page.getByRole('button', { name: /^Push to Shopify/ }).click();
    await page.locator('.product-store .badge', { hasText: 'synced' }).waitFor();
    await c.shot(page, 'flow-product-pushed');
    const mapped = await mapping(productId);
    assert.equal(mapped.sync_status, 'synced');
    const inShop = await shopProduct(mapped.storefront_product_id);
    assert.equal(inShop.title, 'Harbour Rain Jacket');
    // A product with variants sells at its variants' prices: the shop has the variant as it was added.
    assert.deepEqual(inShop.variants.nodes, [{ sku: 'FLOW-JACKET-M', price: '120.00' }]);

    // The variant's price, edited in its row, reaches the shop too.
    const row = page.getByRole('form', { name: /^Variant / }).first();
    await row.getByLabel(/^Price \(/).fill('95.00');
    await row.getByRole('button', { name: /^Save/ }).click();
    await page.getByRole('status').filter({ hasText: /saved/i }).first().waitFor();
    await page.getByRole('button', { name: /^Push to Shopify/ }).click();
    await page.getByRole('status').filter({ hasText: 'Updated in the store.' }).first().waitFor();
    const after = await shopProduct(mapped.storefront_product_id);
    assert.deepEqual(after.variants.nodes, [{ sku: 'FLOW-JACKET-M', price: '95.00' }]);
  });

  it("a product that fails pre-flight shows the reason on the mappings page; fixed, 'Push again' sends it", async () => {
    // Priced in dollars for a shop that sells in euros: the bridge refuses it before any call to the shop.
    await details().getByLabel('Currency').fill('USD');
    await details().getByRole('button', { name: 'Save details' }).click();
    await page.getByRole('status').filter({ hasText: /saved/i }).first().waitFor();
    await page.getByRole('button', { name: /^Push to Shopify/ }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: /USD|currency/i })
      .first()
      .waitFor();
    assert.equal((await mapping(productId)).sync_status, 'error');

    await page.goto(`/bridge/${c.integrationId}/mappings?status=error`);
    const row = page.getByRole('row').filter({ hasText: 'Harbour Rain Jacket' });
    await row.waitFor();
    assert.match((await row.textContent()) ?? '', /USD|currency/i, 'the reason is shown beside the product');
    await c.shot(page, 'flow-mappings-error');
    assert.deepEqual(await c.axe(page), []);
    // The preview (a dry run) says the same, and writes nothing.
    await row.getByRole('button', { name: /^Preview/ }).click();
    const preview = page.getByRole('region', { name: `Preview of PIM product ${productId}` });
    await preview.getByText('Would fail', { exact: true }).waitFor();
    assert.match((await preview.textContent()) ?? '', /USD|currency/i);
    await preview.getByRole('button', { name: /^Dismiss/ }).click();

    await page.goto(`/products/${productId}`);
    await details().getByLabel('Currency').fill('EUR');
    await details().getByRole('button', { name: 'Save details' }).click();
    await page.getByRole('status').filter({ hasText: /saved/i }).first().waitFor();

    await page.goto(`/bridge/${c.integrationId}/mappings?status=error`);
    await page
      .getByRole('row')
      .filter({ hasText: 'Harbour Rain Jacket' })
      .getByRole('button', { name: /^Push again/ })
      .click();
    await page.getByRole('status').filter({ hasText: '1 pushed, 0 failed.' }).waitFor();
    await c.shot(page, 'flow-mappings-pushed-again');
    const fixed = await mapping(productId);
    assert.equal(fixed.sync_status, 'synced');
    assert.equal(fixed.sync_error, null);
  });

  it('previews a push of a product renamed in the shop, and a drift report lists the rename', async () => {
    const mapped = await mapping(productId);
    await c.sandboxGraphql('mutation U($id: ID!) { productUpdate(product: { id: $id, title: "Harbour Jacket SALE" }) { userErrors { message } } }', {
      id: `gid://shopify/Product/${mapped.storefront_product_id}`,
    });
    await page.goto(`/bridge/${c.integrationId}/mappings`);
    const row = page.getByRole('row').filter({ hasText: 'Harbour Rain Jacket' });
    await row.getByRole('button', { name: /^Preview/ }).click();
    const preview = page.getByRole('region', { name: `Preview of PIM product ${productId}` });
    await preview.getByText('Would be updated', { exact: true }).waitFor();
    const title = preview.getByRole('row', { name: /^title / });
    assert.deepEqual(await title.getByRole('cell').allTextContents(), ['Harbour Jacket SALE', 'Harbour Rain Jacket']);
    await c.shot(page, 'flow-mappings-preview');
    assert.deepEqual(await c.axe(page), []);
    assert.equal((await shopProduct(mapped.storefront_product_id)).title, 'Harbour Jacket SALE', 'a preview writes nothing');

    await page.getByRole('navigation', { name: 'Integration' }).getByRole('link', { name: 'Drift' }).click();
    await page.getByRole('button', { name: 'Start a drift report' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Yes, go ahead' }).click();
    const item = page.getByRole('listitem').filter({ has: page.getByRole('link', { name: `PIM product ${productId}` }) });
    await item.getByText('Changed in the shop', { exact: true }).waitFor({ timeout: 30_000 });
    assert.deepEqual(
      await item
        .getByRole('row', { name: /^title / })
        .getByRole('cell')
        .allTextContents(),
      ['Harbour Jacket SALE', 'Harbour Rain Jacket'],
    );
    await c.shot(page, 'flow-drift-report');
    assert.deepEqual(await c.axe(page), []);
  });

  it('moves a category with the keyboard-friendly select, and back by drag and drop', async () => {
    const stored = c.h.as(c.tenant);
    const apparel = (await stored('POST', '/api/categories', { name: 'Apparel' })).json().data;
    const shoes = (await stored('POST', '/api/categories', { name: 'Shoes' })).json().data;
    await page.goto('/categories');
    await page.getByLabel('Move Shoes to').selectOption(String(apparel.id));
    await page.getByRole('status').filter({ hasText: 'Moved Shoes to Apparel' }).waitFor();
    await c.shot(page, 'flow-category-moved');
    const moved = (await stored('GET', `/api/categories/${shoes.id}`)).json().data;
    assert.equal(moved.parent_id, apparel.id);

    // And back to the top level by drag and drop.
    await page.getByRole('listitem', { name: 'Shoes' }).locator('.category-row').first().dragTo(page.getByTestId('category-root-drop'));
    await page.getByRole('status').filter({ hasText: 'Moved Shoes to the top level' }).waitFor();
    assert.equal((await stored('GET', `/api/categories/${shoes.id}`)).json().data.parent_id, null);
  });

  it('signs out: back to sign-in, and the old cookie opens nothing', async () => {
    const cookie = (await page.context().cookies()).find((k) => k.name === 'pimbridge_session')!;
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL((u) => u.pathname === '/sign-in');
    const res = await c.h.app.inject({ method: 'GET', url: '/api/products', headers: { cookie: `${cookie.name}=${cookie.value}` } });
    assert.equal(res.statusCode, 401);
  });
});

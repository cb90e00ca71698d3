// The product list as a workbench, in headless Chromium against a real server with the sandbox shop connected
// (helpers/browser.ts): sort by a column and back, pick rows on two pages and change them at once with Undo, select
// every product a search matches, archive them (asked first) then Undo and send them all to the shop, push the picked
// ones, edit their prices in the grid (keys, copy a column and paste it, fill down) and see the change reach the shop
// by the delta sync, and save, apply and delete a view. axe on each state; screenshots at 1280 and 390 px.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { until } from '../../test/helpers/until.ts';
import { type ConsoleHarness, consoleHarness } from './helpers/browser.ts';

describe('the product list as a workbench', () => {
  let c: ConsoleHarness;
  let page: Page;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const api = async (method: string, url: string, body?: unknown): Promise<any> => (await c.h.as(c.tenant)(method, url, body)).json().data;
  const product = (id: number) => api('GET', `/api/products/${id}`);
  const ids: number[] = [];
  const rowNames = async () => (await page.locator('.product-table tbody .product-name').allTextContents()).map((t) => t.trim());
  const bothWidths = async (name: string) => {
    await c.shot(page, `${name}-1280`);
    await page.setViewportSize({ width: 390, height: 844 });
    await c.shot(page, `${name}-390`);
    assert.deepEqual(await c.axe(page), []);
    await page.setViewportSize({ width: 1280, height: 800 });
  };

  before(async () => {
    c = await consoleHarness();
    for (let i = 1; i <= 30; i++) {
      const p = await api('POST', '/api/products', {
        name: `Bench Tee ${String(i).padStart(2, '0')}`,
        sku: `WB-${String(i).padStart(2, '0')}`,
        price: `${(40 - i).toFixed(2)}`,
        stock: i,
      });
      ids.push(p.id);
    }
    await api('POST', '/api/products', { name: 'Harbour Mug', sku: 'WB-MUG', price: '9.00', status: 'active' });
    const opened = await c.newPage();
    page = opened.page;
    await opened.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: c.url });
    await page.goto('/products');
    await c.signIn(page);
    await page.waitForURL((u) => u.pathname === '/products');
  });

  after(async () => {
    await c?.close();
  });

  it('sorts by a column header, one way then the other, in the URL', async () => {
    await page.locator('.product-table').waitFor();
    await page.getByRole('button', { name: 'Price', exact: true }).click();
    await page.waitForURL((u) => u.searchParams.get('sort') === 'price');
    await until('cheapest first', async () => (await rowNames())[0] === 'Harbour Mug' || null, 10_000);
    assert.equal(await page.locator('th[aria-sort="ascending"]').textContent(), 'Price ▲');
    await page.getByRole('button', { name: /^Price/ }).click();
    await page.waitForURL((u) => u.searchParams.get('sort') === '-price');
    await until('dearest first', async () => (await rowNames())[0] === 'Bench Tee 01' || null, 10_000);
    await bothWidths('workbench-sorted');
    await page.getByRole('button', { name: /^Name/ }).click();
    await page.waitForURL((u) => u.searchParams.get('sort') === 'name');
    await until('by name', async () => (await rowNames())[0] === 'Bench Tee 01' || null, 10_000);
  });

  it('changes rows picked on two pages at once, and undoes it', async () => {
    await page.getByLabel('Select Bench Tee 01').check();
    await page.getByLabel('Select Bench Tee 02').check();
    await page.getByRole('navigation', { name: 'Pages' }).getByRole('button', { name: 'Next' }).click();
    await page.waitForURL((u) => u.searchParams.get('page') === '2');
    await page.getByLabel('Select Bench Tee 26').check();
    const bar = page.getByRole('region', { name: 'Selected products' });
    await bar.getByText('3 products selected').waitFor();
    await bar.getByLabel('Action').selectOption('set_status');
    await bar.getByLabel('Value').selectOption('active');
    await bar.getByRole('button', { name: 'Apply' }).click();
    await bar.getByText('Changed 3 products.').waitFor();
    await bothWidths('workbench-bulk-done');
    assert.deepEqual(await Promise.all([0, 1, 25, 2].map(async (i) => (await product(ids[i])).status)), ['active', 'active', 'active', 'draft']);
    await bar.getByRole('button', { name: 'Undo' }).click();
    await bar.getByText('Undone: 3 products as they were.').waitFor();
    assert.deepEqual(await Promise.all([0, 1, 25].map(async (i) => (await product(ids[i])).status)), ['draft', 'draft', 'draft']);
    await bar.getByRole('button', { name: 'Clear selection' }).click();
    await page.goto('/products?sort=name');
  });

  it('archives every product a search matches, asked first, and undoes it', async () => {
    await page.getByLabel('Search').fill('bench tee');
    await page.waitForURL((u) => u.searchParams.get('q') === 'bench tee');
    await page.getByRole('button', { name: 'Select all 30 matching' }).click();
    const bar = page.getByRole('region', { name: 'Selected products' });
    await bar.getByText('30 products selected').waitFor();
    await bar.getByLabel('Action').selectOption('archive');
    await bar.getByRole('button', { name: 'Apply' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Archive 30 products? You can undo it right after.').waitFor();
    await c.shot(page, 'workbench-archive-confirm-1280');
    assert.deepEqual(await c.axe(page), []);
    await dialog.getByRole('button', { name: 'Archive 30 products' }).click();
    await bar.getByText('Changed 30 products.').waitFor();
    assert.equal((await product(ids[7])).status, 'archived');
    assert.equal((await api('GET', '/api/products?search=mug')).products[0].status, 'active', 'what the search left out is untouched');
    await bar.getByRole('button', { name: 'Undo' }).click();
    await bar.getByText('Undone: 30 products as they were.').waitFor();
    assert.equal((await product(ids[7])).status, 'draft');
    // Every matching product (up to 500) can be sent to the store too: their ids read page by page, then pushed.
    await bar.getByLabel('Action').selectOption('push');
    await bar.getByLabel('Store').selectOption(String(c.integrationId));
    await bar.getByRole('button', { name: 'Apply' }).click();
    await bar.getByText('Sent 30 products to the store.').waitFor({ timeout: 60_000 });
    const mapping = await c.h.call('GET', `/api/products/mapping/${ids[29]}`, c.connectorToken);
    assert.equal(mapping.statusCode, 200, mapping.body);
    await bar.getByRole('button', { name: 'Clear selection' }).click();
  });

  it('pushes the picked products, edits their prices in the grid, and the shop gets them by the delta sync', async () => {
    await page.goto('/products?sort=name');
    for (const n of ['01', '02', '03']) await page.getByLabel(`Select Bench Tee ${n}`).check();
    const bar = page.getByRole('region', { name: 'Selected products' });
    await bar.getByLabel('Action').selectOption('push');
    await bar.getByLabel('Store').selectOption(String(c.integrationId));
    await bar.getByRole('button', { name: 'Apply' }).click();
    await bar.getByText('Sent 3 products to the store.').waitFor({ timeout: 30_000 });
    const mapped = async (id: number) => (await c.h.call('GET', `/api/products/mapping/${id}`, c.connectorToken)).json().data;
    const shopIds = await Promise.all(ids.slice(0, 3).map(async (id) => (await mapped(id)).storefront_product_id));

    await page.getByRole('button', { name: 'Edit 3 selected in a grid' }).click();
    const grid = page.getByRole('grid');
    await grid.waitFor();
    // The cursor starts on the first name: right to the price, Enter edits, type, Enter keeps it and moves down.
    await grid.locator('[data-cell="0-0"]').focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Enter');
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type('21.50');
    await page.keyboard.press('Enter');
    // Row 2's price typed over (a key starts the edit), then the price column copied from the top and pasted as the
    // compare-at prices.
    await page.keyboard.type('22');
    await page.keyboard.press('Enter');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ControlOrMeta+c');
    await page.getByText(/Copied the Price column from row 1/).waitFor();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ControlOrMeta+v');
    await page.getByText(/Pasted into Compare-at price from row 1/).waitFor();
    // Row 2's stock filled down into row 3.
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ControlOrMeta+d');
    // Row 3's status picked from the list Enter opens on a status cell.
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Enter');
    await grid.getByLabel('Status of WB-03').selectOption('active');
    await grid.getByLabel('Status of WB-03').press('Enter');
    await grid.locator('[data-cell="2-5"]', { hasText: 'Active' }).waitFor();
    await bothWidths('workbench-grid');
    await page.getByRole('button', { name: /^Save \d+ changes$/ }).click();
    await page.getByText('Saved 3 products.').waitFor();
    const saved = await Promise.all(ids.slice(0, 3).map(product));
    assert.deepEqual(
      saved.map((p) => [p.price, p.compare_at_price, p.stock, p.status]),
      [
        ['21.5000', '21.5000', 1, 'draft'],
        ['22.0000', '22.0000', 2, 'draft'],
        ['37.0000', '37.0000', 2, 'active'],
      ],
    );
    const shopPrice = async (shopId: number) =>
      (
        await c.sandboxGraphql('query ($id: ID!) { product(id: $id) { variants(first: 1) { nodes { price compareAtPrice } } } }', {
          id: `gid://shopify/Product/${shopId}`,
        })
      ).product.variants.nodes[0];
    const reached = await until(
      'the new prices in the shop',
      async () => {
        const prices = await Promise.all(shopIds.map(shopPrice));
        return prices[0].price === '21.50' && prices[1].price === '22.00' ? prices : null;
      },
      30_000,
      250,
    );
    assert.equal(reached[1].compareAtPrice, '22.00');
    await page.getByRole('button', { name: 'Back to the list' }).click();
  });

  it('saves a view (filters, columns, sort), applies it, and deletes it asked first', async () => {
    await page.goto('/products?status=active&sort=-price');
    await page.getByText('Columns', { exact: true }).click();
    await page.getByRole('checkbox', { name: 'SKU' }).uncheck();
    await page.getByLabel('View name').fill('Active by price');
    await page.getByRole('button', { name: 'Save view' }).click();
    await page.getByRole('button', { name: 'Delete view' }).waitFor();
    const views = await api('GET', '/api/product-views');
    assert.deepEqual(
      views.views.map((v: { name: string; filters: object; sort: string; columns: string[] }) => [v.name, v.filters, v.sort, v.columns.includes('sku')]),
      [['Active by price', { status: 'active' }, '-price', false]],
    );
    await page.goto('/products');
    await page.locator('.product-table').waitFor();
    await page.getByLabel('View', { exact: true }).selectOption({ label: 'Active by price' });
    await page.waitForURL((u) => u.searchParams.get('status') === 'active' && u.searchParams.get('sort') === '-price');
    await until('the view applied', async () => ((await rowNames()).join() === 'Bench Tee 03,Harbour Mug' ? true : null), 10_000);
    assert.equal(await page.getByRole('columnheader', { name: 'SKU' }).count(), 0, 'the view hides the SKU column');
    await bothWidths('workbench-view');
    await page.getByRole('button', { name: 'Delete view' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete view' }).click();
    await until('the view deleted', async () => ((await api('GET', '/api/product-views')).views.length === 0 ? true : null), 10_000);
  });
});

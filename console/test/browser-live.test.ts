// The bridge, live, in a real browser (helpers/browser.ts: a real server with its workers and the sandbox shop): the
// product list (its Shopify column) and the Mappings page are open in one browser, signed in; in another, the merchant
// changes the product's price in the product editor. Without any reload, each of the pages says Pending, then Synced
// again, pushed by the server's stream of sync states (and the editor's own Shopify panel says it too). The sandbox
// shop answers slowly here (latency 900 ms a call), so that each state lasts long enough to be screenshotted; every
// state each page showed is recorded by a MutationObserver in the page, so none passes unseen. No console errors.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { until } from '../../test/helpers/until.ts';
import { type ConsoleHarness, consoleHarness, watchErrors } from './helpers/browser.ts';

/**
 * Records, in the page, every text the element `selector` shows from now on (a change only when it differs). A script
 * text, not a function: tsx's helpers (`__name`) are not in the page.
 */
async function recordStates(page: Page, selector: string): Promise<void> {
  await page.evaluate(`(() => {
    const sel = ${JSON.stringify(selector)};
    window.__seen = [];
    window.__marker = 42;
    const read = () => {
      const text = document.querySelector(sel)?.textContent?.trim() ?? '';
      if (text && window.__seen.at(-1) !== text) window.__seen.push(text);
    };
    read();
    new MutationObserver(read).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
  })()`);
}
const seen = (page: Page) => page.evaluate('window.__seen') as Promise<string[]>;
/** Chromium logs a signed-out page's 401 from GET /api/session itself ("Failed to load resource"): expected. */
const unexplained = (errors: string[]) => errors.filter((e) => !/status of 401 \(Unauthorized\) \(http:\/\/[^)]+\/api\/session\)$/.test(e));
/** The marker set by recordStates: still there, so the page was never reloaded. */
const notReloaded = async (page: Page) => assert.equal(await page.evaluate('window.__marker'), 42);

describe('the bridge, live, in the console', () => {
  let c: ConsoleHarness;
  let productId: number;
  const errors: string[][] = [];

  before(async () => {
    c = await consoleHarness();
    const created = await c.h.as(c.tenant)('POST', '/api/products', { name: 'Live Beacon Lamp', sku: 'LIVE-LAMP', price: '40.00', status: 'active' });
    assert.equal(created.statusCode, 201, created.body);
    productId = created.json().data.id;
    const pushed = await c.h.call('POST', '/api/products/push', c.connectorToken, { products: [{ id: productId }] });
    assert.equal(pushed.statusCode, 200, pushed.body);
    assert.equal(pushed.json().data.successful_count, 1, pushed.body);
    // A slow shop: each state of the sync lasts long enough to be seen in a screenshot.
    const slow = await c.h.admin('PATCH', `/admin/sandbox/stores/${c.shopDomain}`, { latency_ms: 900 });
    assert.equal(slow.statusCode, 200, slow.body);
  });

  after(async () => {
    await c?.close();
  });

  it('a price changed in one browser: the list, the Mappings page and the Shopify panel say Pending, then Synced, without a reload', async () => {
    // The watcher: the product list (searched down to the product) and the Mappings page, in one signed-in context.
    const { context: watching, page: list } = await c.newPage();
    errors.push(watchErrors(list));
    await list.goto('/sign-in');
    await c.signIn(list);
    await list.goto('/products?q=LIVE-LAMP');
    const listBadge = list.getByRole('row', { name: /Live Beacon Lamp/ }).locator('.product-sync-states .badge');
    await listBadge.filter({ hasText: 'Synced' }).waitFor();
    const mappings = await watching.newPage();
    errors.push(watchErrors(mappings));
    await mappings.goto(`/bridge/${c.integrationId}/mappings`);
    const mappingRow = mappings.getByRole('row').filter({ hasText: `#${productId}` });
    await mappingRow.locator('.badge').filter({ hasText: 'Synced' }).waitFor();
    await recordStates(list, `.product-table tbody tr:has(a[href="/products/${productId}"]) .product-sync-states .badge`);
    await recordStates(mappings, `tr:has(a[href="/products/${productId}"]) .badge`);

    // The editor, signed in elsewhere (another browser context: its own cookie).
    const { page: editor } = await c.newPage();
    errors.push(watchErrors(editor));
    await editor.goto('/sign-in');
    await c.signIn(editor);
    await editor.goto(`/products/${productId}`);
    const panel = editor.locator('.product-store .badge');
    await panel.filter({ hasText: 'synced' }).waitFor();
    await recordStates(editor, '.product-store .badge');
    const details = editor.getByRole('form', { name: 'Details' });
    await details.getByLabel(/^Price \(/).fill('44.50');
    await editor.getByRole('region', { name: 'Unsaved changes' }).getByRole('button', { name: 'Save', exact: true }).click();
    await editor
      .getByRole('status')
      .filter({ hasText: /^Saved\.$/ })
      .waitFor();

    // Pending (the delta sync has queued the change), then Syncing (the shop is being written), on each page: seen by
    // the page's recorder; screenshotted while the slow shop keeps it so.
    await listBadge.filter({ hasText: /Pending|Syncing/ }).waitFor();
    await c.shot(list, 'live-products-pending');
    // Polled from here: a predicate run in the page would be an eval, which the console's CSP refuses.
    for (const [page, word] of [
      [mappings, 'Pending'],
      [editor, 'pending'],
    ] as const)
      await until(`${word} seen`, async () => (await seen(page)).includes(word) || null, 15_000);
    // Syncing lasts as long as the slow shop's calls: on a loaded machine the screenshots above may outlast it, so the
    // pages' recorders (asserted below) are what prove it was shown; these waits only time the screenshots.
    await mappingRow
      .locator('.badge')
      .filter({ hasText: /Syncing|Synced/ })
      .waitFor();
    await c.shot(mappings, 'live-mappings-syncing');
    await panel.filter({ hasText: /syncing|synced/ }).waitFor();
    await panel.scrollIntoViewIfNeeded();
    await c.shot(editor, 'live-editor-syncing');

    await listBadge.filter({ hasText: 'Synced' }).waitFor({ timeout: 20_000 });
    // The write ended: the list reads the product again (the new price, changed in the other browser).
    await list
      .getByRole('row', { name: /Live Beacon Lamp/ })
      .getByText('€44.50')
      .waitFor();
    await c.shot(list, 'live-products-synced');
    await mappingRow.locator('.badge').filter({ hasText: 'Synced' }).waitFor({ timeout: 20_000 });
    await c.shot(mappings, 'live-mappings-synced');
    await panel.filter({ hasText: 'synced' }).waitFor({ timeout: 20_000 });
    await panel.scrollIntoViewIfNeeded();
    await c.shot(editor, 'live-editor-synced');

    // Every state each page showed, in order: pending first, synced last (syncing between, when the page saw it).
    for (const [page, words] of [
      [list, ['Synced', 'Pending', 'Syncing', 'Synced']],
      [mappings, ['Synced', 'Pending', 'Syncing', 'Synced']],
      [editor, ['synced', 'pending', 'syncing', 'synced']],
    ] as const) {
      const shown = (await seen(page)).map((s) => s.replace(/ in .*$/, ''));
      assert.equal(shown[0], words[0], `starts synced: ${shown.join(' → ')}`);
      assert.equal(shown[1], words[1], `then pending: ${shown.join(' → ')}`);
      assert.equal(shown.at(-1), words[3], `ends synced: ${shown.join(' → ')}`);
      assert.ok(
        shown.slice(1, -1).every((s) => s === words[1] || s === words[2]),
        `only pending and syncing between: ${shown.join(' → ')}`,
      );
      await notReloaded(page);
    }

    // The shop has the new price.
    const mapping = (await c.h.call('GET', `/api/products/mapping/${productId}`, c.connectorToken)).json().data;
    assert.equal(mapping.sync_status, 'synced');
    const shop = await c.sandboxGraphql('query ($id: ID!) { product(id: $id) { variants(first: 1) { nodes { price } } } }', {
      id: `gid://shopify/Product/${mapping.storefront_product_id}`,
    });
    assert.deepEqual(shop, { product: { variants: { nodes: [{ price: '44.50' }] } } });

    // The overview's sync logs (and its chart) have the delta sync.
    await mappings.goto(`/bridge/${c.integrationId}`);
    await mappings.getByRole('cell', { name: 'Delta sync' }).first().waitFor();
    await mappings.getByRole('cell', { name: 'Delta sync' }).first().scrollIntoViewIfNeeded();
    await c.shot(mappings, 'live-overview-delta-sync');

    assert.deepEqual(unexplained(errors.flat()), []);
  });

  it('phone width: the list shows the store state under each product', async () => {
    const { page } = await c.newPage({ width: 390, height: 844 });
    errors.push(watchErrors(page));
    await page.goto('/sign-in');
    await c.signIn(page);
    await page.goto('/products?q=LIVE-LAMP');
    await page.locator('.product-sync-states .badge').filter({ hasText: 'Synced' }).waitFor();
    await c.shot(page, 'live-products-phone');
    assert.deepEqual(unexplained(errors.flat()), []);
  });
});

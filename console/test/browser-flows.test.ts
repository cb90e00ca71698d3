// What a merchant does in the console, end to end in headless Chromium against a real server (helpers/browser.ts):
// create a product with a variant, change its price and see it reach the sandbox shop; make a product fail the
// bridge's pre-flight and read the reason on the mappings page (and in a push's preview), fix it and push it again;
// preview a push of a product the merchant renamed in the shop, and find it in a drift report; give a product tags, a
// weight in grams and "continue selling when out of stock", and a variant a barcode and a weight in pounds; set the
// organization's default currency; move a category; keep stock by variant and warehouse; sign out.
// Every step goes through the page; the test reads the results back through the APIs and the shop's GraphQL.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
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
  /** Saves every change of the product page with its save bar, and waits for the one confirmation. */
  const saveAll = async (on: Page = page) => {
    await on.getByRole('region', { name: 'Unsaved changes' }).getByRole('button', { name: 'Save', exact: true }).click();
    await on.waitForTimeout(1500);
    await c.shot(on, 'debug-save');
    await on
      .getByRole('status')
      .filter({ hasText: /^Saved\.$/ })
      .waitFor();
  };

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

    await page.getByRole('button', { name: 'Add a variant' }).click();
    await page.getByLabel('SKU of new variant 1').fill('FLOW-JACKET-M');
    await page.getByLabel('Name of new variant 1').fill('Harbour Rain Jacket / M');
    await page.getByLabel(/^Price \(\w+\) of new variant 1$/).fill('120.00');
    await page.getByRole('button', { name: 'More of new variant 1' }).click();
    await page.getByRole('region', { name: 'More of the new variant' }).getByLabel('Options').fill('Size: M');
    await saveAll();
    await page.getByLabel('SKU of FLOW-JACKET-M').waitFor();
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
    await saveAll();
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

    // The variant's price, edited in its row of the grid, reaches the shop too.
    await page.getByLabel(/^Price \(\w+\) of FLOW-JACKET-M$/).fill('95.00');
    await saveAll();
    await page.getByRole('button', { name: /^Push to Shopify/ }).click();
    await page.getByRole('status').filter({ hasText: 'Updated in the store.' }).first().waitFor();
    const after = await shopProduct(mapped.storefront_product_id);
    assert.deepEqual(after.variants.nodes, [{ sku: 'FLOW-JACKET-M', price: '95.00' }]);
  });

  it("a product that fails pre-flight shows the reason on the mappings page; fixed, 'Push again' sends it", async () => {
    // Priced in dollars for a shop that sells in euros: the bridge refuses it before any call to the shop.
    await details().getByLabel('Currency').fill('USD');
    await saveAll();
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
    // Pushed again as it is, it fails again, for the same reason.
    await row.getByRole('button', { name: /^Push again/ }).click();
    await page.getByRole('status').filter({ hasText: '0 pushed, 1 failed.' }).waitFor();

    // Fixed in the PIM: the bridge hears the change and syncs the product by itself (no push), and the Mappings page,
    // open meanwhile, shows it synced without a reload.
    await page.goto(`/bridge/${c.integrationId}/mappings`);
    const listed = page.getByRole('row').filter({ hasText: 'Harbour Rain Jacket' });
    await listed.waitFor();
    const editor = await page.context().newPage();
    await editor.goto(`/products/${productId}`);
    await editor.getByRole('form', { name: 'Details' }).getByLabel('Currency').fill('EUR');
    await saveAll(editor);
    await editor.close();
    await listed.locator('.badge').filter({ hasText: 'Synced' }).waitFor({ timeout: 20_000 });
    await c.shot(page, 'flow-mappings-synced-after-fix');
    const fixed = await mapping(productId);
    assert.equal(fixed.sync_status, 'synced');
    assert.equal(fixed.sync_error, null);
    await page.goto(`/products/${productId}`);
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
    // A report only reads the shop: it starts without a confirmation.
    await page.getByRole('button', { name: 'Start a drift report' }).click();
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

  it('a product without variants: tags, weight with its unit and the out-of-stock setting, saved and there after a reload', async () => {
    const stored = c.h.as(c.tenant);
    const towel = (await stored('POST', '/api/products', { name: 'Linen Tea Towel', sku: 'FLOW-TOWEL', price: '12.00' })).json().data;
    await page.goto(`/products/${towel.id}`);
    const tags = details().getByLabel('Tags', { exact: true });
    await tags.fill('kitchen');
    await tags.press('Enter');
    // A comma ends a tag too; one typed again in another letter case is left out.
    await tags.pressSequentially('linen, Gift,KITCHEN,');
    await tags.fill('temporary');
    await tags.press('Enter');
    await details().getByRole('button', { name: 'Remove the tag temporary' }).click();
    assert.deepEqual(await details().getByRole('list', { name: 'Tags of this product' }).getByRole('listitem').allTextContents(), [
      'kitchen×',
      'linen×',
      'Gift×',
    ]);
    await details().getByLabel('Weight', { exact: true }).fill('250');
    await details().getByLabel('Weight unit').selectOption('g');
    await details().getByLabel('When out of stock').selectOption({ label: 'Continue selling' });
    await details().getByLabel('Track quantity').selectOption({ label: 'No' });
    await details().getByLabel('Page title').fill('Linen tea towel, stonewashed');
    await details().getByLabel('Type in the store').fill('Tea towels');
    await details().getByRole('heading', { name: 'Selling and shipping' }).scrollIntoViewIfNeeded();
    await c.shot(page, 'flow-product-store-fields');
    await saveAll();

    const saved = (await stored('GET', `/api/products/${towel.id}`)).json().data;
    assert.deepEqual(saved.tags, ['kitchen', 'linen', 'Gift']);
    assert.equal(Number(saved.weight), 250);
    assert.equal(saved.weight_unit, 'g');
    assert.equal(saved.inventory_policy, 'continue');
    assert.equal(saved.inventory_tracked, false);
    assert.equal(saved.taxable, null, 'a setting left "Not set" stays the store\'s own');
    assert.equal(saved.seo_title, 'Linen tea towel, stonewashed');
    assert.equal(saved.storefront_type, 'Tea towels');

    await page.reload();
    await details().getByRole('list', { name: 'Tags of this product' }).waitFor();
    assert.deepEqual(await details().getByRole('list', { name: 'Tags of this product' }).getByRole('listitem').allTextContents(), [
      'kitchen×',
      'linen×',
      'Gift×',
    ]);
    assert.equal(await details().getByLabel('Weight', { exact: true }).inputValue(), '250');
    assert.equal(await details().getByLabel('Weight unit').inputValue(), 'g');
    assert.equal(await details().getByLabel('When out of stock').inputValue(), 'continue');
    assert.equal(await details().getByLabel('Track quantity').inputValue(), 'no');
    assert.equal(await details().getByLabel('Charge tax').inputValue(), '');
    assert.equal(await details().getByLabel('Page title').inputValue(), 'Linen tea towel, stonewashed');
    assert.equal(await details().getByLabel('Type in the store').inputValue(), 'Tea towels');
    await details().getByRole('heading', { name: 'In the store' }).scrollIntoViewIfNeeded();
    await c.shot(page, 'flow-product-store-fields-reloaded');
    assert.deepEqual(await c.axe(page), []);
    // On a phone the fields stack, the tags wrap.
    await page.setViewportSize({ width: 390, height: 844 });
    await details().getByRole('heading', { name: 'In the store' }).scrollIntoViewIfNeeded();
    await c.shot(page, 'flow-product-store-fields-phone');
    assert.equal(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth'), true, 'nothing wider than the phone');
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it("a variant's barcode and weight in its row, its weight unit behind 'More', are saved with it", async () => {
    await page.goto(`/products/${productId}`);
    // A product with variants sells as its variants: its details say so instead of showing the fields.
    await details()
      .getByText(/sells as its variants/)
      .waitFor();
    await page.getByLabel('Barcode of FLOW-JACKET-M').fill('ISBN 978-0-00-000000-2');
    await page.getByLabel('Weight of FLOW-JACKET-M').fill('1.5');
    await page.getByRole('button', { name: 'More of FLOW-JACKET-M' }).click();
    await page.getByRole('region', { name: 'More of FLOW-JACKET-M' }).getByLabel('Weight unit').selectOption('lb');
    await c.shot(page, 'flow-variant-more');
    assert.equal(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth'), true, 'the variants grid fits in 1280 px');
    await saveAll();
    const variants = (await c.h.as(c.tenant)('GET', `/api/products/${productId}/variants`)).json().data.variants;
    assert.equal(variants[0].barcode, 'ISBN 978-0-00-000000-2');
    assert.equal(Number(variants[0].weight), 1.5);
    assert.equal(variants[0].weight_unit, 'lb');
    await page.reload();
    assert.equal(await page.getByLabel('Barcode of FLOW-JACKET-M').inputValue(), 'ISBN 978-0-00-000000-2');
    assert.equal(await page.getByLabel('Weight of FLOW-JACKET-M').inputValue(), '1.5');
    assert.deepEqual(await c.axe(page), []);
    // On a phone the grid scrolls sideways inside its card; the page itself does not.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByLabel('SKU of FLOW-JACKET-M').scrollIntoViewIfNeeded();
    await c.shot(page, 'flow-variant-grid-phone');
    assert.equal(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth'), true, 'nothing wider than the phone');
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('one save bar saves the details and a variant together; Discard, confirmed, drops every change', async () => {
    await page.goto(`/products/${productId}`);
    assert.equal(await page.getByRole('region', { name: 'Unsaved changes' }).count(), 0, 'no bar before a change');
    await details().getByLabel('Short description').fill('Keeps the rain out.');
    await page.getByLabel('Name of FLOW-JACKET-M').fill('Harbour Rain Jacket, medium');
    await page.getByRole('region', { name: 'Unsaved changes' }).waitFor();
    await c.shot(page, 'flow-product-save-bar');
    assert.deepEqual(await c.axe(page), []);
    await saveAll();
    const pim = c.h.as(c.tenant);
    assert.equal((await pim('GET', `/api/products/${productId}`)).json().data.short_description, 'Keeps the rain out.');
    assert.equal((await pim('GET', `/api/products/${productId}/variants`)).json().data.variants[0].name, 'Harbour Rain Jacket, medium');

    // A problem in one section: nothing is sent, not even the other section's valid change.
    await details().getByLabel('Short description').fill('Changed again.');
    await page.getByLabel(/^Price \(\w+\) of FLOW-JACKET-M$/).fill('12;50');
    await page.getByRole('region', { name: 'Unsaved changes' }).getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('alert').filter({ hasText: 'Not saved: correct the fields marked.' }).waitFor();
    assert.equal(await page.getByLabel(/^Price \(\w+\) of FLOW-JACKET-M$/).getAttribute('aria-invalid'), 'true');
    assert.equal((await pim('GET', `/api/products/${productId}`)).json().data.short_description, 'Keeps the rain out.');

    await page.getByRole('region', { name: 'Unsaved changes' }).getByRole('button', { name: 'Discard' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Discard changes' }).click();
    await page.getByRole('region', { name: 'Unsaved changes' }).waitFor({ state: 'detached' });
    assert.equal(await details().getByLabel('Short description').inputValue(), 'Keeps the rain out.');
    assert.equal(await page.getByLabel(/^Price \(\w+\) of FLOW-JACKET-M$/).inputValue(), '95.00');
  });

  it('sets the default currency: three letters, kept after a reload, and a new product starts in it', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Organization' }).click();
    await page.waitForURL((u) => u.pathname === '/lists/organization');
    const currency = page.getByLabel('Default currency');
    assert.equal(await currency.inputValue(), '', 'not set at first');
    await currency.selectOption({ label: 'Another currency…' });
    await page.getByLabel('Currency code').fill('C1');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('must be three letters, such as EUR (ISO 4217)').waitFor();
    await c.shot(page, 'flow-organization-currency-refused');
    assert.equal((await c.h.as(c.tenant)('GET', '/api/organization')).json().data.default_currency, null, 'nothing was sent');

    await currency.selectOption('CHF');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'Default currency saved: CHF' }).waitFor();
    await c.shot(page, 'flow-organization-currency-saved');
    assert.equal((await c.h.as(c.tenant)('GET', '/api/organization')).json().data.default_currency, 'CHF');
    await page.reload();
    assert.equal(await page.getByLabel('Default currency').inputValue(), 'CHF');
    await c.shot(page, 'flow-organization-currency');
    assert.deepEqual(await c.axe(page), []);
    await page.setViewportSize({ width: 390, height: 844 });
    await c.shot(page, 'flow-organization-currency-phone');
    assert.deepEqual(await c.axe(page), []);
    await page.setViewportSize({ width: 1280, height: 800 });

    await page.goto('/products/new');
    assert.equal(await details().getByLabel('Currency').inputValue(), 'CHF');
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

  it('adds images by picking and by dropping files, shows a refused file by name, edits alt text and moves one to first', async () => {
    const pim = c.h.as(c.tenant);
    const created = await pim('POST', '/api/products', { name: 'Harbour Tote', sku: 'FLOW-TOTE', price: '30.00' });
    const toteId = created.json().data.id;
    const png = (rgb: [number, number, number]) =>
      sharp({ create: { width: 60, height: 40, channels: 3, background: { r: rgb[0], g: rgb[1], b: rgb[2] } } })
        .png()
        .toBuffer();
    const [front, back] = await Promise.all([png([200, 60, 40]), png([40, 90, 200])]);
    await page.goto(`/products/${toteId}`);
    const images = page.getByRole('region', { name: 'Images' });
    await images.getByText('No images yet.').waitFor();

    // Picked with the file chooser: one image, and a file that says it is a PNG but is not one.
    const chooser = page.waitForEvent('filechooser');
    await images.getByRole('button', { name: 'Choose files' }).click();
    await (await chooser).setFiles([
      { name: 'front.png', mimeType: 'image/png', buffer: front },
      { name: 'notes.png', mimeType: 'image/png', buffer: Buffer.from('not an image') },
    ]);
    await images.getByRole('alert').filter({ hasText: 'notes.png:' }).waitFor();
    await images.getByRole('listitem').first().waitFor();

    // Dropped on the zone, as a file dragged from the desktop arrives.
    const dataTransfer = await page.evaluateHandle((base64) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([Uint8Array.from(atob(base64), (ch) => ch.charCodeAt(0))], 'back.png', { type: 'image/png' }));
      return transfer;
    }, back.toString('base64'));
    await images.locator('.drop-zone').dispatchEvent('drop', { dataTransfer });
    await images.getByRole('listitem').nth(1).waitFor();

    await images.getByLabel('Alternative text of image 2').fill('Harbour Tote, back');
    await images.getByLabel('Alternative text of image 2').press('Enter');
    await images.getByRole('status').filter({ hasText: 'Alternative text saved.' }).waitFor();
    await images.getByRole('button', { name: 'Earlier (image 2)' }).click();
    await images.getByRole('status').filter({ hasText: 'Main image changed.' }).waitFor();
    await c.shot(page, 'flow-product-images');

    const media = (await pim('GET', `/api/products/${toteId}/media`)).json().data.media;
    assert.deepEqual(
      media.map((m: { size_bytes: number; alt_text: string | null; position: number }) => [m.size_bytes, m.alt_text, m.position]),
      [
        [back.length, 'Harbour Tote, back', 0],
        [front.length, null, 1],
      ],
    );
    await images.getByRole('img', { name: 'Harbour Tote, back' }).waitFor();
  });

  it('makes every variant of two options at once, and a value added later makes only its own', async () => {
    const pim = c.h.as(c.tenant);
    const created = (await pim('POST', '/api/products', { name: 'Deck Shoe', sku: 'FLOW-DECK', price: '80.00' })).json().data;
    await page.goto(`/products/${created.id}`);
    const options = page.getByRole('form', { name: 'Options' });
    await options.getByLabel('Option 1', { exact: true }).fill('Size');
    await options.getByLabel('Values of option 1').fill('41, 42');
    await options.getByRole('button', { name: 'Add another option' }).click();
    await options.getByLabel('Option 2', { exact: true }).fill('Colour');
    await options.getByLabel('Values of option 2').fill('Navy, Sand');
    await options.getByRole('button', { name: 'Make 4 combinations' }).click();
    await options.getByRole('status').filter({ hasText: '4 variants added.' }).waitFor();
    await page.getByLabel('SKU of FLOW-DECK-42-SAND').waitFor();

    await options.getByLabel('Values of option 1').fill('41, 42, 43');
    await options.getByRole('button', { name: 'Make 6 combinations' }).click();
    await options.getByRole('status').filter({ hasText: '2 variants added; 4 existed already and were kept.' }).waitFor();
    await c.shot(page, 'flow-product-options');

    // The grid moves like a spreadsheet: down a column with the arrow keys and Enter, across from a cell's edge.
    const focused = () => page.evaluate('document.activeElement.getAttribute("aria-label")');
    await page.getByLabel(/^Price \(\w+\) of FLOW-DECK-41-NAVY$/).click();
    await page.keyboard.press('ArrowDown');
    assert.match(String(await focused()), /^Price \(\w+\) of FLOW-DECK-41-SAND$/);
    await page.keyboard.type('85');
    await page.keyboard.press('Enter');
    assert.match(String(await focused()), /^Price \(\w+\) of FLOW-DECK-42-NAVY$/);
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('End');
    await page.keyboard.press('ArrowRight');
    assert.match(String(await focused()), /^Sale price \(\w+\) of FLOW-DECK-41-SAND$/);
    await saveAll();

    const variants = (await pim('GET', `/api/products/${created.id}/variants`)).json().data.variants;
    assert.deepEqual(
      variants.map((v: { sku: string; price: string }) => [v.sku, v.price]),
      [
        ['FLOW-DECK-41-NAVY', '80.0000'],
        ['FLOW-DECK-41-SAND', '85.0000'],
        ['FLOW-DECK-42-NAVY', '80.0000'],
        ['FLOW-DECK-42-SAND', '80.0000'],
        ['FLOW-DECK-43-NAVY', '80.0000'],
        ['FLOW-DECK-43-SAND', '80.0000'],
      ],
    );
  });

  it('stock by variant and warehouse: typing a level moves the totals, Enter moves down the column, saved and there after a reload', async () => {
    const pim = c.h.as(c.tenant);
    const tote = (await pim('POST', '/api/products', { name: 'Canvas Carryall', sku: 'FLOW-CARRY', price: '30.00' })).json().data;
    const made = (await pim('POST', `/api/products/${tote.id}/variants/options`, { options: [{ name: 'Colour', values: ['Ecru', 'Black'] }] })).json().data
      .created as { id: number; sku: string }[];
    const north = (await pim('POST', '/api/warehouses', { code: 'NORTH', name: 'North hall' })).json().data;
    await pim('POST', '/api/warehouses', { code: 'SOUTH', name: 'South hall' });
    await pim('PUT', `/api/products/${tote.id}/variants/${made[0].id}/stock`, { warehouse_id: north.id, quantity: 4 });
    await page.goto(`/products/${tote.id}`);
    const stock = page.getByRole('form', { name: 'Stock' });
    const cell = (colour: string, warehouse: string) =>
      stock.getByLabel(`Canvas Carryall / ${colour} (FLOW-CARRY-${colour.toUpperCase()}), ${warehouse}`, { exact: true });
    const rowTotals = () => stock.getByTestId('row-total').allTextContents();
    const footer = () => stock.locator('tfoot td').allTextContents();
    await cell('Ecru', 'North hall').waitFor();
    assert.equal(await cell('Ecru', 'North hall').inputValue(), '4');
    assert.deepEqual(await rowTotals(), ['4', '0']);
    assert.deepEqual(await footer(), ['4', '0', '4']);

    await cell('Ecru', 'South hall').fill('6');
    assert.deepEqual(await rowTotals(), ['10', '0'], "the variant's total follows what is typed");
    assert.deepEqual(await footer(), ['4', '6', '10']);
    await cell('Ecru', 'South hall').press('Enter');
    assert.equal(
      await page.evaluate('document.activeElement.getAttribute("aria-label")'),
      'Canvas Carryall / Black (FLOW-CARRY-BLACK), South hall',
      'Enter moves down',
    );
    await cell('Black', 'South hall').fill('3');
    assert.deepEqual(await footer(), ['4', '9', '13']);
    await c.shot(page, 'flow-product-stock');
    await saveAll();

    const levels = (await pim('GET', `/api/products/${tote.id}/stock`)).json().data;
    assert.equal(levels.stock, 13);
    assert.deepEqual(
      levels.warehouse_stock.map((w: { code: string; quantity: number }) => [w.code, w.quantity]),
      [
        ['NORTH', 4],
        ['SOUTH', 9],
      ],
    );
    assert.deepEqual(
      levels.variants.map((v: { sku: string; stock_quantity: number }) => [v.sku, v.stock_quantity]),
      [
        ['FLOW-CARRY-ECRU', 10],
        ['FLOW-CARRY-BLACK', 3],
      ],
    );
    await page.reload();
    await cell('Black', 'South hall').waitFor();
    assert.equal(await cell('Black', 'South hall').inputValue(), '3');
    assert.deepEqual(await footer(), ['4', '9', '13']);
    // In Variants, a count kept by warehouse is shown, not typed.
    const ecruStock = page.getByLabel('Stock of FLOW-CARRY-ECRU', { exact: true });
    assert.equal(await ecruStock.inputValue(), '10');
    assert.equal(await ecruStock.isEditable(), false);
    await stock.scrollIntoViewIfNeeded();
    await c.shot(page, 'flow-product-stock-saved');
    assert.deepEqual(await c.axe(page), []);
    // On a phone:
    await page.setViewportSize({ width: 390, height: 844 });
    await stock.scrollIntoViewIfNeeded();
    await c.shot(page, 'flow-product-stock-phone');
    // The section fits the phone (the table scrolls inside its frame).
    const box = await stock.boundingBox();
    assert.ok(box && box.x >= 0 && box.x + box.width <= 390, JSON.stringify(box));
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('imports a file with a bad row and lists the problem on the page, line and reason', async () => {
    await page.goto('/files');
    const file = ['sku,name,price', 'FLOW-CSV-1,Canvas Cap,19.00', 'FLOW-CSV-2,Broken Price,12;50', ''].join('\n');
    await page.getByLabel('CSV file').setInputFiles({ name: 'caps.csv', mimeType: 'text/csv', buffer: Buffer.from(file) });
    await page.getByRole('button', { name: 'Upload and import' }).click();
    const problems = page.getByRole('region', { name: 'What was not imported' });
    const row = problems.getByRole('row').filter({ hasText: 'FLOW-CSV-2' });
    await row.waitFor();
    assert.deepEqual((await row.getByRole('cell').allTextContents()).slice(0, 2), ['3', 'FLOW-CSV-2']);
    assert.match((await row.getByRole('cell').nth(2).textContent()) ?? '', /price/);
    await c.shot(page, 'flow-import-problems');
    // Counted by product, with the refused rows apart.
    assert.equal((await page.locator('.import-count-groups').textContent())?.replace(/\s+/g, ''), 'ProductsCreated1Updated0Unchanged0RowsRefused1');
    const imported = (await c.h.as(c.tenant)('GET', '/api/products?search=FLOW-CSV')).json().data.products;
    assert.deepEqual(
      imported.map((p: { sku: string }) => p.sku),
      ['FLOW-CSV-1'],
    );
  });

  it('checks a file with a dry run, then imports it with one click, without choosing it again', async () => {
    await page.goto('/files');
    const file = ['sku,name,price', 'FLOW-DRY-1,Dry Run Scarf,29.00', ''].join('\n');
    await page.getByLabel('CSV file').setInputFiles({ name: 'scarf.csv', mimeType: 'text/csv', buffer: Buffer.from(file) });
    await page.getByLabel(/Dry run: check the whole file/).check();
    await page.getByRole('button', { name: 'Upload and check' }).click();
    await page.getByRole('button', { name: 'Import this file now' }).click();
    await page.getByRole('status').filter({ hasText: 'The import is done.' }).waitFor();
    await c.shot(page, 'flow-import-after-check');
    const imported = (await c.h.as(c.tenant)('GET', '/api/products?search=FLOW-DRY')).json().data.products;
    assert.deepEqual(
      imported.map((p: { sku: string; name: string }) => [p.sku, p.name]),
      [['FLOW-DRY-1', 'Dry Run Scarf']],
    );
  });

  it('asks before leaving a product with an unsaved edit: Stay keeps it, Leave without saving drops it', async () => {
    await page.goto(`/products/${productId}`);
    const name = details().getByLabel('Name', { exact: true });
    const saved = await name.inputValue();
    await name.fill(`${saved} (edited)`);
    await page.getByRole('navigation').getByRole('link', { name: 'Categories' }).click();
    const ask = page.getByRole('dialog', { name: /changes that are not saved/ });
    await ask.waitFor();
    await c.shot(page, 'flow-unsaved-guard');
    await ask.getByRole('button', { name: 'Stay on this page' }).click();
    assert.equal(new URL(page.url()).pathname, `/products/${productId}`);
    assert.equal(await name.inputValue(), `${saved} (edited)`, 'the edit is still there');

    await page.getByRole('navigation').getByRole('link', { name: 'Categories' }).click();
    await ask.getByRole('button', { name: 'Leave without saving' }).click();
    await page.waitForURL((u) => u.pathname === '/categories');
    assert.equal((await c.h.as(c.tenant)('GET', `/api/products/${productId}`)).json().data.name, saved, 'nothing was saved');

    // Typed back to what is saved: nothing to lose, nothing asked.
    await page.goto(`/products/${productId}`);
    await details().getByLabel('Name', { exact: true }).fill(saved);
    await page.getByRole('navigation').getByRole('link', { name: 'Categories' }).click();
    await page.waitForURL((u) => u.pathname === '/categories');
  });

  it('signs out: back to sign-in, and the old cookie opens nothing', async () => {
    const cookie = (await page.context().cookies()).find((k) => k.name === 'pimbridge_session')!;
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL((u) => u.pathname === '/sign-in');
    const res = await c.h.app.inject({ method: 'GET', url: '/api/products', headers: { cookie: `${cookie.name}=${cookie.value}` } });
    assert.equal(res.statusCode, 401);
  });
});

// The console in headless Chromium against a real server (console/test/helpers/browser.ts): sign-in and its cookie,
// every page of console/src/routes.tsx without console errors (a CSP violation is one) or serious accessibility
// violations, screenshotted at desktop and phone sizes into test-output/console/, a session that ends under the
// merchant, and sign-out. One server and one browser for the whole file.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { BrowserContext, Page } from 'playwright-core';
import { type ConsoleHarness, consoleHarness, watchErrors } from './helpers/browser.ts';

const SESSION_COOKIE = 'pimbridge_session';
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
const LIST_KINDS = ['brands', 'suppliers', 'vat-rates', 'channels', 'warehouses'];

/**
 * The one error a refused sign-in explains: Chromium logs every 4xx answer itself ("Failed to load resource"), and the
 * wrong secret's POST /api/session is a 401. Being signed out is not one: GET /api/session answers it as data (200).
 */
const unexplained = (errors: string[]) => errors.filter((e) => !/status of 401 \(Unauthorized\) \(http:\/\/[^)]+\/api\/session\)$/.test(e));

describe('the console in a browser', () => {
  let c: ConsoleHarness;
  /** The signed-in context every page check shares (one sign-in for all of them). */
  let context: BrowserContext;
  let page: Page;
  let errors: string[];
  let mappedProductId: number;
  /** The key the console signs in with (a test below revokes the first and makes another). */
  let credentials: { apiKey: string; apiSecret: string };

  const pim = (method: string, url: string, payload?: unknown) => c.h.as(c.tenant)(method, url, payload);
  const created = async (method: string, url: string, payload: unknown) => {
    const res = await pim(method, url, payload);
    assert.ok(res.statusCode === 200 || res.statusCode === 201, `${method} ${url}: ${res.statusCode} ${res.body}`);
    return res.json().data;
  };

  before(async () => {
    c = await consoleHarness();
    credentials = c.tenant;
    // Reference data, a category tree of three levels, a few products in it, one pushed to the sandbox shop (a mapping).
    const brand = await created('POST', '/api/brands', { name: 'Northwind Outfitters' });
    await created('POST', '/api/suppliers', { name: 'Fjord Textiles' });
    const apparel = await created('POST', '/api/categories', { name: 'Apparel' });
    const tops = await created('POST', '/api/categories', { name: 'Tops', parent_id: apparel.id });
    const knitwear = await created('POST', '/api/categories', { name: 'Knitwear', parent_id: tops.id });
    await created('POST', '/api/categories', { name: 'Footwear' });
    const names = ['Merino Crew Sweater', 'Linen Overshirt', 'Alpine Down Parka', 'Canvas Tote', 'Leather Chelsea Boots'];
    const ids: number[] = [];
    for (const [i, name] of names.entries()) {
      const p = await created('POST', '/api/products', {
        name,
        sku: `CT-${i + 1}`,
        price: `${49 + i * 20}.00`,
        status: 'active',
        brand_id: brand.id,
        category_ids: [i < 2 ? knitwear.id : tops.id],
        description: `${name}: a console test product.`,
      });
      ids.push(p.id);
    }
    mappedProductId = ids[1]!;
    // A French translation the sandbox shop has no language for: the collections page lists French as missing.
    await created('PUT', `/api/products/${mappedProductId}/translations/fr`, { name: 'Surchemise en lin' });
    const pushed = await c.h.call('POST', '/api/products/push', c.connectorToken, { id: mappedProductId });
    assert.equal(pushed.statusCode, 200, pushed.body);
    // A merchant renames it in the shop, and a drift report finds it (the drift page has a report to show).
    const shopId = `gid://shopify/Product/${pushed.json().data.results[0].storefront_product_id}`;
    await c.sandboxGraphql('mutation U($id: ID!) { productUpdate(product: { id: $id, title: "Linen Overshirt (shop sale)" }) { userErrors { message } } }', {
      id: shopId,
    });
    const drift = await c.h.call('POST', '/api/drift', c.connectorToken);
    assert.equal(drift.statusCode, 200, drift.body);
    for (let state = ''; state !== 'completed'; ) {
      await new Promise((r) => setTimeout(r, 100));
      const report = await c.h.call('GET', '/api/drift', c.connectorToken);
      state = report.json().data.state;
      assert.notEqual(state, 'failed', report.body);
    }

    ({ context, page } = await c.newPage(DESKTOP));
    errors = watchErrors(page);
  });

  after(async () => {
    await c?.close();
  });

  it('the pushed product is in the sandbox shop (the bridge pages have a mapping to show), renamed there by the merchant', async () => {
    const data = await c.sandboxGraphql('{ products(first: 10) { nodes { title status } } }');
    const nodes = data.products.nodes as { title: string; status: string }[];
    assert.deepEqual(
      nodes.filter((n) => n.title.startsWith('Linen Overshirt')),
      [{ title: 'Linen Overshirt (shop sale)', status: 'ACTIVE' }],
    );
    // The others, created in the PIM after the shop was connected, are the delta sync's (woken by each write, not
    // waiting for its tick): there already, or on their way; nothing else is.
    const others = ['Merino Crew Sweater', 'Alpine Down Parka', 'Canvas Tote', 'Leather Chelsea Boots'];
    for (const n of nodes.filter((n) => !n.title.startsWith('Linen Overshirt'))) assert.ok(others.includes(n.title), n.title);
  });

  it("a wrong key or secret shows the server's message and sets no cookie", async () => {
    const { context: other, page: p } = await c.newPage(DESKTOP);
    const pageErrors = watchErrors(p);
    try {
      await p.goto('/sign-in');
      await p.getByLabel('API key').fill(c.tenant.apiKey);
      await p.getByLabel('API secret').fill('not-the-secret');
      await p.getByRole('button', { name: 'Sign in' }).click();
      const alert = p.getByRole('alert');
      await alert.waitFor();
      // The sentence the server itself answers for a wrong pair.
      const direct = await c.h.app.inject({ method: 'POST', url: '/api/session', payload: { api_key: 'nobody', api_secret: 'nothing' } });
      assert.equal(direct.statusCode, 401);
      const serverMessage = direct.json().error;
      assert.equal(typeof serverMessage, 'string');
      assert.equal((await alert.textContent())?.trim(), serverMessage);
      assert.equal(new URL(p.url()).pathname, '/sign-in');
      assert.deepEqual(
        (await other.cookies()).filter((k) => k.name === SESSION_COOKIE),
        [],
      );
      await c.shot(p, 'sign-in-wrong-secret');
      assert.deepEqual(await c.axe(p), []);
      // The browser logs the 401 itself ("Failed to load resource"): that one is expected here, nothing else.
      assert.deepEqual(unexplained(pageErrors), []);
    } finally {
      await other.close();
    }
  });

  it('signs in and lands on /products; the cookie is HttpOnly and no storage holds the key or the secret', async () => {
    await page.goto('/');
    await page.waitForURL((u) => u.pathname === '/sign-in');
    await c.shot(page, 'sign-in-desktop');
    await page.setViewportSize(PHONE);
    await c.shot(page, 'sign-in-phone');
    await page.setViewportSize(DESKTOP);
    assert.deepEqual(await c.axe(page), []);
    await c.signIn(page);
    // Sent away from `/`, back to `/`, which is the product list.
    await page.waitForURL((u) => u.pathname === '/products');
    await page.locator('main h1').first().waitFor();
    const cookie = (await context.cookies()).find((k) => k.name === SESSION_COOKIE);
    assert.ok(cookie, 'a session cookie is set');
    assert.equal(cookie.httpOnly, true);
    assert.equal(cookie.sameSite, 'Strict');
    assert.equal(cookie.path, '/');
    const stored = (await page.evaluate(
      '[localStorage, sessionStorage].flatMap((s) => Object.keys(s).flatMap((k) => [k, s.getItem(k)])).join("\\n")',
    )) as string;
    assert.ok(!stored.includes(c.tenant.apiKey), 'the API key is not in web storage');
    assert.ok(!stored.includes(c.tenant.apiSecret), 'the API secret is not in web storage');
    // Nor can a script read the cookie.
    assert.ok(!((await page.evaluate('document.cookie')) as string).includes(SESSION_COOKIE));
    // Signed out at first: the page asked, and nothing went to the browser's console.
    assert.deepEqual(errors, []);
  });

  describe('every page loads without errors, passes axe, and is screenshotted at both sizes', () => {
    const pages = (): [string, string][] => [
      ['products', '/products'],
      // The pushed one: its Shopify panel has a mapping to show.
      ['product-editor', `/products/${mappedProductId}`],
      ['product-new', '/products/new'],
      ['categories', '/categories'],
      ['attributes', '/attributes'],
      ...LIST_KINDS.map((kind): [string, string] => [`lists-${kind}`, `/lists/${kind}`]),
      ['files', '/files'],
      ['bridge', '/bridge'],
      ['bridge-overview', `/bridge/${c.integrationId}`],
      ['bridge-mappings', `/bridge/${c.integrationId}/mappings`],
      ['bridge-sync', `/bridge/${c.integrationId}/sync`],
      ['bridge-drift', `/bridge/${c.integrationId}/drift`],
      ['bridge-collections', `/bridge/${c.integrationId}/collections`],
      // Under one of the console's roots: the server answers index.html only there (src/server/console-static.ts),
      // any other path is left to the APIs' 404.
      ['not-found', '/bridge/no/such/page'],
    ];
    // The names are known before `before` has run; the paths (ids) after.
    const names = [
      'products',
      'product-editor',
      'product-new',
      'categories',
      'attributes',
      ...LIST_KINDS.map((k) => `lists-${k}`),
      'files',
      'bridge',
      'bridge-overview',
      'bridge-mappings',
      'bridge-sync',
      'bridge-drift',
      'bridge-collections',
      'not-found',
    ];
    for (const name of names) {
      it(name, async () => {
        const target = pages().find(([n]) => n === name)![1];
        errors.length = 0;
        await page.setViewportSize(DESKTOP);
        await page.goto(target);
        assert.equal(new URL(page.url()).pathname, target, 'stays on the page (signed in)');
        const heading = page.locator('main h1').first();
        await heading.waitFor();
        assert.ok(((await heading.textContent()) ?? '').trim().length > 0, 'the page has a heading');
        // Whatever the page loads on arrival has settled (no request in flight for 500 ms).
        await page.waitForLoadState('networkidle');
        assert.match(await page.title(), /Pimbridge/);
        await c.shot(page, `${name}-desktop`);
        const desktopViolations = await c.axe(page);
        await page.setViewportSize(PHONE);
        await page.waitForTimeout(100);
        await c.shot(page, `${name}-phone`);
        const phoneViolations = await c.axe(page);
        assert.deepEqual(desktopViolations, [], `axe at ${DESKTOP.width}x${DESKTOP.height}`);
        assert.deepEqual(phoneViolations, [], `axe at ${PHONE.width}x${PHONE.height}`);
        assert.deepEqual(errors, [], 'no console errors');
      });
    }
  });

  it("the collections page lists the pushed product's category as a collection, checks it against the PIM, and names the shop's missing language", async () => {
    await page.setViewportSize(DESKTOP);
    await page.goto(`/bridge/${c.integrationId}/collections`);
    const row = page.getByRole('row', { name: /Knitwear/ });
    await row.waitFor();
    assert.match((await row.textContent()) ?? '', /knitwear/);
    await page.getByRole('listitem').filter({ hasText: 'French (fr)' }).waitFor();
    await page.getByRole('button', { name: 'Check now' }).click();
    await page.getByRole('status').filter({ hasText: 'Every collection matches its category.' }).waitFor();
    await c.shot(page, 'bridge-collections-checked');
  });

  it("a brand added on the Lists page is at once among the product editor's and the product filter's brands, without a reload", async () => {
    await page.setViewportSize(DESKTOP);
    errors.length = 0;
    const brand = 'Harbour & Co';
    // The editor first, so that its brands are read (and cached) before the new one exists.
    await page.goto(`/products/${mappedProductId}`);
    const editorBrands = page.getByLabel('Brand', { exact: true });
    await editorBrands.locator('option', { hasText: 'Northwind Outfitters' }).waitFor({ state: 'attached' });
    assert.equal(await editorBrands.locator('option', { hasText: brand }).count(), 0);
    // From here on the page is never loaded again: the marker would be gone.
    await page.evaluate('window.__sameDocument = true');
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Brands', exact: true }).click();
    await page.waitForURL((u) => u.pathname === '/lists/brands');
    await page.getByRole('heading', { level: 1, name: 'Brands' }).waitFor();
    await page.getByLabel('Name', { exact: true }).fill(brand);
    await page.getByRole('button', { name: 'Add brand' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Added ${brand}.` })
      .waitFor();
    // Back the way a merchant goes: the products (whose brand filter offers it), then the product.
    await nav.getByRole('link', { name: 'Products', exact: true }).click();
    await page.waitForURL((u) => u.pathname === '/products');
    await page.getByRole('heading', { level: 1, name: 'Products' }).waitFor();
    await page.getByLabel('Brand', { exact: true }).locator('option', { hasText: brand }).waitFor({ state: 'attached' });
    await page.getByRole('link', { name: 'Linen Overshirt', exact: true }).click();
    await page.waitForURL((u) => u.pathname === `/products/${mappedProductId}`);
    await page.getByRole('heading', { level: 1, name: 'Linen Overshirt' }).waitFor();
    await editorBrands.locator('option', { hasText: brand }).waitFor({ state: 'attached' });
    await editorBrands.selectOption({ label: brand });
    await editorBrands.scrollIntoViewIfNeeded();
    assert.equal(await page.evaluate('window.__sameDocument'), true, 'no reload on the way');
    await c.shot(page, 'product-editor-new-brand');
    assert.deepEqual(errors, []);
  });

  it('a session ended server-side sends the merchant to sign-in with a notice, and back to the page after', async () => {
    await page.setViewportSize(DESKTOP);
    await page.goto('/categories');
    await page.locator('main h1').first().waitFor();
    assert.equal(new URL(page.url()).pathname, '/categories');
    // The page has read its data (the tree's request may still be on its way when the heading shows): only then does
    // the session end, so every 401 below is the reload's.
    await page.waitForLoadState('networkidle');
    // The operator revokes the key the session was opened with.
    const revoked = await c.h.admin('DELETE', `/admin/api-keys/${c.tenant.keyId}`);
    assert.ok(revoked.statusCode === 200 || revoked.statusCode === 204, revoked.body);
    errors.length = 0;
    // A new key of the same organization, for signing in again.
    const key = (await c.h.admin('POST', `/admin/organizations/${c.tenant.organizationId}/api-keys`, {})).json();
    credentials = { apiKey: key.api_key, apiSecret: key.api_secret };
    await page.reload();
    await page.waitForURL((u) => u.pathname === '/sign-in');
    const at = new URL(page.url());
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await c.shot(page, 'session-ended');
    // Read now, judged at the end: signing in again and returning is checked whatever the notice did.
    const notice = await page
      .getByRole('status')
      .filter({ hasText: /session has ended/i })
      .waitFor({ timeout: 3_000 })
      .then(
        () => true,
        () => false,
      );
    await c.signIn(page, credentials);
    assert.equal(at.searchParams.get('next'), '/categories');
    await page.waitForURL((u) => u.pathname === '/categories');
    await page.locator('main h1').first().waitFor();
    assert.deepEqual(errors, []);
    assert.equal(at.searchParams.get('ended'), '1', `sent to ${at.pathname}${at.search}: the page should say the session ended`);
    assert.ok(notice, 'the sign-in page shows "Your session has ended"');
  });

  it('signs out back to sign-in; the old cookie then opens nothing', async () => {
    await page.setViewportSize(DESKTOP);
    await page.goto('/products');
    await page.waitForURL((u) => u.pathname === '/products' || u.pathname === '/sign-in');
    // Signed in already unless the test before left the page signed out.
    if (new URL(page.url()).pathname === '/sign-in') await c.signIn(page, credentials);
    await page.waitForURL((u) => u.pathname === '/products');
    await page.locator('main h1').first().waitFor();
    const cookie = (await context.cookies()).find((k) => k.name === SESSION_COOKIE);
    assert.ok(cookie);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL((u) => u.pathname === '/sign-in');
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await c.shot(page, 'signed-out');
    assert.equal(
      (await context.cookies()).find((k) => k.name === SESSION_COOKIE && k.value !== ''),
      undefined,
      'the cookie is cleared',
    );
    const headers = { cookie: `${SESSION_COOKIE}=${cookie.value}` };
    assert.equal((await fetch(`${c.url}/api/products`, { headers })).status, 401);
    const who = await fetch(`${c.url}/api/session`, { headers });
    assert.deepEqual(((await who.json()) as { data: unknown }).data, { signed_in: false, ended: true, session: null });
  });

  it('the API documentation at /docs renders under its own content security policy, and "Try it out" reaches the API', async () => {
    const docs = await c.browser.newPage();
    const docsErrors = watchErrors(docs);
    try {
      await docs.goto(`${c.url}/docs`);
      await docs.locator('.opblock').first().waitFor();
      await docs.locator('.opblock-summary').first().click();
      await docs.locator('button.try-out__btn').first().click();
      await docs.locator('button.execute').first().click();
      await docs.locator('.live-responses-table').first().waitFor();
      // A blocked script, style or request is a console error.
      assert.deepEqual(docsErrors, []);
    } finally {
      await docs.close();
    }
  });
});

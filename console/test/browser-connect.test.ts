// "Connect a Shopify store" in a real browser (helpers/browser.ts: a real server whose PUBLIC_URL is the address the
// browser uses, so the sandbox store's allowed redirect, {PUBLIC_URL}/shopify/callback, is this server's): stores made
// with the admin API (POST /admin/sandbox/stores); installing the app through the store's consent page and landing on
// the new integration; the merchant's own store with its client ID and secret, a refused secret first; a missing scope
// and a refused renewal as the bridge pages show them; /shopify/install reached before signing in. Every page is
// checked with axe and saved at 1280 and 390 px wide under test-output/console/connect-*.png.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { type ConsoleHarness, consoleHarness, SHOTS_DIR, watchErrors } from './helpers/browser.ts';

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

interface SandboxStore {
  domain: string;
  api_base_url: string;
  access_token: string;
  client_id: string;
  client_secret: string;
}

describe('connecting a Shopify store from the console', () => {
  let c: ConsoleHarness;
  let page: Page;
  let errors: string[];
  let installed: SandboxStore;
  let own: SandboxStore;
  let installedId: number;

  const store = async (name: string, settings: Record<string, unknown> = {}): Promise<SandboxStore> => {
    const made = await c.h.admin('POST', '/admin/sandbox/stores', { domain: `${name}-${process.pid}.myshopify.com` });
    assert.equal(made.statusCode, 201, made.body);
    const domain = made.json().domain as string;
    if (Object.keys(settings).length > 0) {
      const patched = await c.h.admin('PATCH', `/admin/sandbox/stores/${domain}`, settings);
      assert.equal(patched.statusCode, 200, patched.body);
    }
    return made.json();
  };

  /** The page as it is, whole, at 1280 and at 390 px wide, each checked with axe (no serious or critical violation). */
  const shots = async (p: Page, name: string) => {
    const found: Record<string, unknown> = {};
    for (const [size, viewport] of [
      ['desktop', DESKTOP],
      ['phone', PHONE],
    ] as const) {
      await p.setViewportSize(viewport);
      await p.waitForTimeout(100);
      await p.screenshot({ path: path.join(SHOTS_DIR, `connect-${name}-${size}.png`), fullPage: true });
      found[size] = await c.axe(p);
    }
    await p.setViewportSize(DESKTOP);
    assert.deepEqual(found, { desktop: [], phone: [] }, `axe on ${name}`);
  };

  /** A call of the console's own kind (a session of the tenant, with its CSRF token), made from the test. */
  const sessionCall = async (method: string, url: string, integrationId: number, body: unknown) => {
    const opened = await fetch(`${c.url}/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ api_key: c.tenant.apiKey, api_secret: c.tenant.apiSecret }),
    });
    assert.equal(opened.status, 200);
    const cookie = opened.headers
      .getSetCookie()
      .map((v) => v.split(';')[0])
      .join('; ');
    const csrf = ((await opened.json()) as { data: { csrf_token: string } }).data.csrf_token;
    const res = await fetch(`${c.url}${url}`, {
      method,
      headers: { cookie, 'x-csrf-token': csrf, 'x-integration-id': String(integrationId), 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return res.json();
  };
  const product = async (name: string) => {
    const made = await c.h.as(c.tenant)('POST', '/api/products', { name, sku: `CONNECT-${name.replace(/\W+/g, '-')}`, price: '19.99', status: 'active' });
    assert.equal(made.statusCode, 201, made.body);
    return made.json().data.id as number;
  };

  const connectCard = () => page.getByRole('region', { name: 'Connect a Shopify store' });

  before(async () => {
    c = await consoleHarness();
    installed = await store('install');
    own = await store('own');
    ({ page } = await c.newPage(DESKTOP));
    errors = watchErrors(page);
    await page.goto('/bridge');
    await page.waitForURL((u) => u.pathname === '/sign-in');
    await c.signIn(page);
    await page.waitForURL((u) => u.pathname === '/bridge');
  });

  after(async () => {
    await c?.close();
  });

  it('the bridge page offers the three ways, in words a merchant reads', async () => {
    const card = connectCard();
    await card.waitFor();
    for (const way of ['Install the Pimbridge app', 'Your own store (Dev Dashboard app)', 'Legacy custom app token']) {
      await card.getByRole('radio', { name: way }).waitFor();
    }
    assert.equal(await card.getByRole('radio', { name: 'Install the Pimbridge app' }).isChecked(), true);
    // The shop the harness connected with a legacy token is listed with how it is connected.
    const row = page.getByRole('row').filter({ hasText: c.shopDomain });
    await row.getByText('Legacy token').waitFor();
    await page.waitForLoadState('networkidle');
    await shots(page, 'bridge');

    // Nothing typed: the field says so, and nothing leaves the page.
    const form = page.getByRole('form', { name: 'Install the Pimbridge app' });
    await form.getByRole('button', { name: 'Install' }).click();
    const address = form.getByLabel('Store address');
    await form.getByText(/^Type your store's address, such as/).waitFor();
    assert.equal(await address.getAttribute('aria-invalid'), 'true');
    assert.equal(new URL(page.url()).pathname, '/bridge');
  });

  it("installs the app: the store's consent page names the app and its scopes; Install lands on the new integration", async () => {
    const form = page.getByRole('form', { name: 'Install the Pimbridge app' });
    await form.getByLabel('Store address').fill(installed.domain);
    await form.getByRole('button', { name: 'Install' }).click();
    await page.waitForURL((u) => u.pathname === `/sandbox/shopify/${installed.domain}/admin/oauth/authorize`);
    await page.getByRole('heading', { name: 'Install Pimbridge' }).waitFor();
    const text = (await page.locator('main').textContent()) ?? '';
    assert.match(text, new RegExp(installed.domain.replace(/\./g, '\\.')));
    const scopes = await page.getByRole('list', { name: 'It will be able to' }).getByRole('listitem').allTextContents();
    for (const scope of ['read_products', 'write_products', 'write_inventory', 'read_locations', 'write_publications', 'write_translations', 'read_locales']) {
      assert.ok(scopes.includes(scope), `the consent page lists ${scope} (${scopes.join(', ')})`);
    }
    await shots(page, 'consent');

    await page.getByRole('button', { name: /^Install Pimbridge on / }).click();
    await page.waitForURL((u) => /^\/bridge\/\d+$/.test(u.pathname) && u.searchParams.get('installed') === '1');
    installedId = Number(new URL(page.url()).pathname.split('/').pop());
    await page.getByRole('status').filter({ hasText: 'Your store is connected' }).waitFor();
    const connections = page.getByRole('region', { name: 'Connections' });
    await connections.getByText('Installed app').waitFor();
    await connections.getByText('Token expires', { exact: true }).waitFor();
    await connections.getByText('Renewed automatically', { exact: true }).waitFor();
    await connections.getByText('All granted', { exact: true }).waitFor();
    assert.match((await page.locator('main h1').textContent()) ?? '', new RegExp(installed.domain.replace(/\./g, '\\.')));
    await page.waitForLoadState('networkidle');
    await shots(page, 'installed-overview');

    // The list says the same.
    await page.goto('/bridge');
    const row = page.getByRole('row').filter({ hasText: installed.domain });
    await row.getByText('Installed app').waitFor();
    await row.getByText(/^Token expires .*, renewed automatically$/).waitFor();
  });

  it('connects the own store with its client ID and secret; a refused secret is shown beside the field', async () => {
    await page.goto('/bridge');
    await connectCard().getByRole('radio', { name: 'Your own store (Dev Dashboard app)' }).check();
    const form = page.getByRole('form', { name: 'Your own store (Dev Dashboard app)' });
    await form.getByLabel('Store address').fill(own.domain);
    await form.getByLabel('Client ID').fill(own.client_id);
    await form.getByLabel('Client secret').fill('shpss_not-the-secret');
    await form.getByRole('button', { name: 'Connect store' }).click();
    const secret = form.getByLabel('Client secret');
    await form.getByText(/did not give an access token/).waitFor();
    assert.equal(await secret.getAttribute('aria-invalid'), 'true');
    // The message is the field's description, and the field has the focus (a screen reader reads both).
    const describedBy = (await secret.getAttribute('aria-describedby')) ?? '';
    assert.match((await page.locator(`[id="${describedBy.split(' ').pop()}"]`).textContent()) ?? '', /did not give an access token/);
    assert.equal(await secret.evaluate((el) => el === document.activeElement), true);
    assert.equal(new URL(page.url()).pathname, '/bridge');
    await shots(page, 'own-store-refused');

    await secret.fill(own.client_secret);
    await form.getByRole('button', { name: 'Connect store' }).click();
    await page.waitForURL((u) => /^\/bridge\/\d+$/.test(u.pathname) && u.searchParams.get('connected') === '1');
    await page.getByRole('status').filter({ hasText: 'Your store is connected' }).waitFor();
    await page.getByRole('region', { name: 'Connections' }).getByText('Own store app').waitFor();
    const ownId = Number(new URL(page.url()).pathname.split('/').pop());
    assert.notEqual(ownId, installedId);
  });

  it('connects a store with a legacy token; the access it lacks is named on the overview and the list', async () => {
    const legacy = await store('legacy', { revoked_scopes: ['write_publications'] });
    await page.goto('/bridge');
    await connectCard().getByRole('radio', { name: 'Legacy custom app token' }).check();
    const form = page.getByRole('form', { name: 'Legacy custom app token' });
    // The address typed as a merchant might: the store's admin address.
    await form.getByLabel('Store address').fill(`https://${legacy.domain}/admin`);
    await form.getByLabel('Access token').fill(legacy.access_token);
    await form.getByRole('button', { name: 'Connect store' }).click();
    await page.waitForURL((u) => /^\/bridge\/\d+$/.test(u.pathname) && u.searchParams.get('connected') === '1');
    const connections = page.getByRole('region', { name: 'Connections' });
    await connections.getByText('Legacy token').waitFor();
    await connections.getByText(/^Missing access: write_publications$/).waitFor();
    await page.waitForLoadState('networkidle');
    await shots(page, 'missing-scope-overview');
    await page.goto('/bridge');
    await page
      .getByRole('row')
      .filter({ hasText: legacy.domain })
      .getByText(/^Missing access: write_publications$/)
      .waitFor();
    await page.waitForLoadState('networkidle');
    await shots(page, 'bridge-after');
  });

  it('a renewal the store refuses for good asks for reauthorization, and Reauthorize is an install again', async () => {
    // Both of its tokens live a second: once they have expired, the renewal is refused for good.
    const brief = await store('brief', { token_lifetime_seconds: 1, refresh_token_lifetime_seconds: 1 });
    await page.goto('/bridge');
    const form = page.getByRole('form', { name: 'Install the Pimbridge app' });
    await form.getByLabel('Store address').fill(brief.domain);
    await form.getByRole('button', { name: 'Install' }).click();
    await page.getByRole('button', { name: /^Install Pimbridge on / }).click();
    await page.waitForURL((u) => /^\/bridge\/\d+$/.test(u.pathname));
    const briefId = Number(new URL(page.url()).pathname.split('/').pop());
    await new Promise((r) => setTimeout(r, 2_500));
    // A push reaches the store, which refuses the renewal for good (the status's own checks are cached for 30 s).
    const pushed = await sessionCall('POST', '/api/products/push', briefId, { id: await product('Brief tee') });
    assert.match(JSON.stringify(pushed), /needs reauthorization/);
    await page.goto(`/bridge/${briefId}`);
    await page.getByText(`${brief.domain} needs to be reauthorized.`).waitFor();
    await page.getByRole('region', { name: 'Connections' }).getByText('Needs reauthorization', { exact: true }).waitFor();
    const reauthorize = page.getByRole('link', { name: /^Reauthorize/ });
    assert.equal(await reauthorize.getAttribute('href'), `/shopify/install?shop=${brief.domain}`);
    await page.waitForLoadState('networkidle');
    await shots(page, 'reauthorize-overview');

    await page.goto('/bridge');
    const row = page.getByRole('row').filter({ hasText: brief.domain });
    await row.getByText('Needs reauthorization').waitFor();
    await page.waitForLoadState('networkidle');
    await shots(page, 'bridge-reauthorize');
    await c.h.admin('PATCH', `/admin/sandbox/stores/${brief.domain}`, { token_lifetime_seconds: null, refresh_token_lifetime_seconds: null });
    await row.getByRole('link', { name: /^Reauthorize/ }).click();
    await page.waitForURL((u) => u.pathname === `/sandbox/shopify/${brief.domain}/admin/oauth/authorize`);
    await page.getByRole('button', { name: /^Install Pimbridge on / }).click();
    await page.waitForURL((u) => u.pathname === `/bridge/${briefId}`);
    await page.getByRole('region', { name: 'Connections' }).getByText('All granted', { exact: true }).waitFor();
    assert.equal(await page.getByRole('link', { name: /^Reauthorize/ }).count(), 0);
  });

  it('/shopify/install before signing in: sign-in first, then on to the consent page (and at once when signed in)', async () => {
    const later = await store('later');
    const { context, page: fresh } = await c.newPage(PHONE);
    try {
      await fresh.goto(`/shopify/install?shop=${later.domain}`);
      await fresh.waitForURL((u) => u.pathname === '/sign-in');
      assert.equal(new URL(fresh.url()).searchParams.get('next'), `/shopify/install?shop=${later.domain}`);
      await c.signIn(fresh);
      await fresh.waitForURL((u) => u.pathname === `/sandbox/shopify/${later.domain}/admin/oauth/authorize`);
      await fresh.getByRole('heading', { name: 'Install Pimbridge' }).waitFor();
      // Signed in already: the sign-in page goes straight on.
      await fresh.goto(`/sign-in?next=${encodeURIComponent(`/shopify/install?shop=${later.domain}`)}`);
      await fresh.waitForURL((u) => u.pathname === `/sandbox/shopify/${later.domain}/admin/oauth/authorize`);
    } finally {
      await context.close();
    }
  });

  it('no console errors on the way (but what Chromium logs by itself: the refused secret)', () => {
    const expected = [/status of 400 \(Bad Request\) \(http:\/\/[^)]+\/api\/shops\)$/];
    assert.deepEqual(
      errors.filter((e) => !expected.some((r) => r.test(e))),
      [],
    );
  });
});

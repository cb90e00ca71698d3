// The console in a real browser: console/dist built if stale, a real server on a free port over a temporary PGlite
// database (the sandbox Shopify shop served by the same app, the job workers running so a push reaches it), an
// organization with its key, a sandbox shop connected to it, and headless Chromium (@sparticuz/chromium's bundled
// binary, so a fresh `npm install` is all it needs; /usr/bin/chromium when the machine has one).
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { type ConnectorHarness, connectorHarness, freePort } from '../../../test/helpers/connector.js';
import { databaseTargets, type Tenant } from '../../../test/helpers/harness.js';
import { type Json, sandboxData } from '../../../test/helpers/sandbox-graphql.js';
import { CONSOLE_DIST, ensureConsoleBuilt, launchBrowser, ROOT } from './chromium.js';

export { CONSOLE_DIST, ensureConsoleBuilt, launchBrowser, ROOT };
export const SHOTS_DIR = path.join(ROOT, 'test-output', 'console');
const SANDBOX_API_VERSION = '2026-10';

export interface ConsoleHarness {
  h: ConnectorHarness;
  /** http://127.0.0.1:port: the console and every API. */
  url: string;
  tenant: Tenant;
  shopDomain: string;
  integrationId: number;
  /** The connector's bearer token of the integration (to push, read mappings). */
  connectorToken: string;
  browser: Browser;
  /** A new context (cookies and storage of its own) on the server, with a page in it. */
  newPage(viewport?: { width: number; height: number }): Promise<{ context: BrowserContext; page: Page }>;
  /** The sign-in form filled and sent; resolves once the page has left /sign-in. */
  signIn(page: Page, credentials?: { apiKey: string; apiSecret: string }): Promise<void>;
  /** A PNG of the current viewport in test-output/console/<name>.png; returns its path. */
  shot(page: Page, name: string): Promise<string>;
  /** axe-core's violations of impact serious or critical on the page as it is. */
  axe(page: Page): Promise<AxeViolation[]>;
  /** The sandbox shop's Admin GraphQL: the data of one call (no top-level errors allowed). */
  sandboxGraphql(query: string, variables?: Json): Promise<Json>;
  close(): Promise<void>;
}

export interface AxeViolation {
  id: string;
  impact: string;
  help: string;
  nodes: { target: string[]; html: string }[];
}

export async function consoleHarness(): Promise<ConsoleHarness> {
  await ensureConsoleBuilt();
  // The server serves a copy of the build just checked: a rebuild of console/dist while the test runs (someone editing
  // the console, `npm run build`) empties its assets and would break the pages half-way through.
  const served = mkdtempSync(path.join(os.tmpdir(), 'pimbridge-console-'));
  cpSync(CONSOLE_DIST, served, { recursive: true });
  mkdirSync(SHOTS_DIR, { recursive: true });
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const h = await connectorHarness(
    databaseTargets()[0]!,
    {
      SHOPIFY_SANDBOX: 'true',
      MEDIA_ALLOW_PRIVATE_NETWORKS: 'true',
      CONNECTOR_ALLOW_PRIVATE_NETWORKS: 'true',
      CONSOLE_DIR: served,
      PUBLIC_URL: url,
    },
    port,
  );
  let browser: Browser | null = null;
  try {
    await h.app.services.jobs.workers.start();
    const tenant = await h.tenant('Console Test Co');
    const shopDomain = `console-${process.pid}.myshopify.com`;
    const made = await h.admin('POST', '/admin/shops', { domain: shopDomain, platform: 'sandbox', organization_id: tenant.organizationId });
    if (made.statusCode !== 201) throw new Error(`sandbox shop: ${made.statusCode} ${made.body}`);
    const shopToken: string = made.json().access_token;
    const connected = await h.call('POST', '/api/connect', null, {
      shop_domain: shopDomain,
      pim_base_url: url,
      pim_api_key: tenant.apiKey,
      pim_api_secret: tenant.apiSecret,
    });
    if (connected.statusCode !== 200) throw new Error(`connect: ${connected.statusCode} ${connected.body}`);
    const { integration_id: integrationId, api_token: connectorToken } = connected.json().data;
    browser = await launchBrowser();
    const b = browser;
    const axeSource = readFileSync(path.join(ROOT, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');
    const graphqlUrl = `${url}/sandbox/shopify/${shopDomain}/admin/api/${SANDBOX_API_VERSION}/graphql.json`;
    return {
      h,
      url,
      tenant,
      shopDomain,
      integrationId,
      connectorToken,
      browser: b,
      async newPage(viewport = { width: 1280, height: 800 }) {
        const context = await b.newContext({ baseURL: url, viewport });
        // A page that never renders fails its test in 10 s rather than Playwright's 30.
        context.setDefaultTimeout(10_000);
        return { context, page: await context.newPage() };
      },
      async signIn(page, credentials = tenant) {
        if (!new URL(page.url(), url).pathname.startsWith('/sign-in')) await page.goto('/sign-in');
        await page.getByLabel('API key').fill(credentials.apiKey);
        await page.getByLabel('API secret').fill(credentials.apiSecret);
        await page.getByRole('button', { name: 'Sign in' }).click();
        await page.waitForURL((u) => !u.pathname.startsWith('/sign-in'));
      },
      async shot(page, name) {
        const file = path.join(SHOTS_DIR, `${name.replace(/[^\w.-]+/g, '_')}.png`);
        await page.screenshot({ path: file });
        return file;
      },
      async axe(page) {
        // Injected as a script element's text: the page's CSP allows no inline script, but Playwright's addScriptTag
        // runs it through the DevTools protocol, which the CSP does not govern.
        const present = await page.evaluate('typeof window.axe === "object"');
        if (!present) await page.evaluate(axeSource);
        const violations = (await page.evaluate(`window.axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations.map((v) => ({
          id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target, html: n.html })),
        })))`)) as AxeViolation[];
        return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      },
      sandboxGraphql: (query, variables = {}) => sandboxData(graphqlUrl, shopToken, query, variables),
      async close() {
        await b.close().catch(() => undefined);
        await h.app.services.jobs.workers.stop(5_000);
        await h.close();
        rmSync(served, { recursive: true, force: true });
      },
    };
  } catch (err) {
    await browser?.close().catch(() => undefined);
    await h.app.services.jobs.workers.stop(5_000).catch(() => undefined);
    await h.close();
    rmSync(served, { recursive: true, force: true });
    throw err;
  }
}

/** Console errors and uncaught page errors of a page, collected from now on. */
export function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(`console: ${msg.text()}${msg.location().url ? ` (${msg.location().url})` : ''}`);
  });
  page.on('pageerror', (err) => errors.push(`pageerror: ${err.message}`));
  return errors;
}

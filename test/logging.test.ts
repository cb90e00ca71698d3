// Logs: JSON lines off a terminal (or LOG_FORMAT=json), readable one-line requests on one (or LOG_FORMAT=pretty), where the
// server's own traffic (the embedded demo's sync) drops to debug; secrets are redacted in both formats.
import assert from 'node:assert/strict';
import { sql } from 'drizzle-orm';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../src/config.js';
import { ConfigError } from '../src/config/env.js';
import type { Database } from '../src/db/client.js';
import { loggerOptions } from '../src/lib/logging.js';
import { startApp } from '../src/server/start-app.js';
import { databaseTargets, TEST_ADMIN_TOKEN, testConfig, type TestApp } from './helpers/harness.js';

const BASE = { ADMIN_TOKEN: TEST_ADMIN_TOKEN, DATA_DIR: '/nonexistent-test-data-dir', ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64') };

const SECRETS = {
  api_key: 'pk_logged_key_0001',
  api_secret: 'sk_logged_secret_0002',
  pim_api_key: 'pk_logged_pim_0003',
  pim_api_secret: 'sk_logged_pim_0004',
  access_token: 'shpat_logged_0005',
  api_token: 'pbt_logged_0006',
  password: 'hunter2_logged_0007',
};

describe('LOG_FORMAT', () => {
  it('is pretty on a terminal and json elsewhere by default; LOG_FORMAT overrides both ways', () => {
    assert.equal(loadConfig(BASE, true).logFormat, 'pretty');
    assert.equal(loadConfig(BASE, false).logFormat, 'json');
    assert.equal(loadConfig({ ...BASE, LOG_FORMAT: 'json' }, true).logFormat, 'json');
    assert.equal(loadConfig({ ...BASE, LOG_FORMAT: 'pretty' }, false).logFormat, 'pretty');
    assert.throws(
      () => loadConfig({ ...BASE, LOG_FORMAT: 'xml' }, true),
      (err: unknown) => err instanceof ConfigError && /LOG_FORMAT must be json or pretty/.test(err.message),
    );
  });
});

/** An app whose logs are written to `lines` in the given format and level. */
async function loggedApp(database: Database, env: Record<string, string>, lines: string[]): Promise<TestApp> {
  const config = testConfig(env);
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(
        ...String(chunk)
          .split('\n')
          .filter((l) => l !== ''),
      );
      done();
    },
  });
  const app = await startApp({ config, database, logger: loggerOptions(config, sink) });
  await app.ready();
  return app;
}

const target = databaseTargets()[0];

describe(`logs (${target.name})`, () => {
  let database: Database;
  before(async () => {
    database = await target.open();
    await database.migrate();
  });
  after(() => database.close());

  const secretHeaders = { 'x-api-key': SECRETS.api_key, 'x-api-secret': SECRETS.api_secret, authorization: `Bearer ${SECRETS.api_token}` };

  it('json: one JSON object a line, one structured line per request, secrets redacted', async () => {
    const lines: string[] = [];
    const app = await loggedApp(database, { LOG_FORMAT: 'json', LOG_LEVEL: 'info' }, lines);
    try {
      await app.inject({ method: 'GET', url: '/healthz', headers: secretHeaders });
      app.log.warn({ body: SECRETS }, 'a payload with secrets');
      const parsed = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
      const request = parsed.filter((l) => l.msg === 'request');
      assert.equal(request.length, 1);
      assert.equal(request[0].url, '/healthz');
      assert.equal(request[0].statusCode, 200);
      assert.equal(typeof request[0].ms, 'number');
      const payload = parsed.find((l) => l.msg === 'a payload with secrets');
      assert.deepEqual(payload?.body, Object.fromEntries(Object.keys(SECRETS).map((k) => [k, '[redacted]'])));
      const all = lines.join('\n');
      for (const secret of Object.values(SECRETS)) assert.ok(!all.includes(secret), `${secret} reached the log`);
    } finally {
      await app.close();
    }
  });

  it('pretty: readable lines, a request in one short line, secrets redacted', async () => {
    const lines: string[] = [];
    const app = await loggedApp(database, { LOG_FORMAT: 'pretty', LOG_LEVEL: 'info' }, lines);
    try {
      const before = lines.length;
      await app.inject({ method: 'GET', url: '/healthz?probe=1', headers: secretHeaders });
      const requestLines = lines.slice(before);
      assert.equal(requestLines.length, 1, requestLines.join('\n'));
      assert.match(requestLines[0], /^\[\d\d:\d\d:\d\d\] INFO: GET \/healthz\?probe=1 200 [\d.]+ ms$/);
      app.log.warn({ body: SECRETS }, 'a payload with secrets');
      const all = lines.join('\n');
      assert.throws(() => JSON.parse(lines[0]), 'not JSON');
      assert.match(all, /WARN: a payload with secrets/);
      // An error names its request id (the 5xx answer's X-Request-Id); info lines stay short without it.
      // A real fault below the service: the table the listing reads is gone for this one request.
      await database.db.execute(sql`ALTER TABLE organizations RENAME TO organizations_gone`);
      const boom = await app
        .inject({ method: 'GET', url: '/admin/organizations', headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'x-request-id': 'req-logged-1' } })
        .finally(() => database.db.execute(sql`ALTER TABLE organizations_gone RENAME TO organizations`));
      assert.equal(boom.statusCode, 500);
      assert.match(lines.join('\n'), /ERROR: admin request failed \(request req-logged-1\)/);
      assert.ok(!requestLines[0].includes('request '), 'no request id on an info line');
      assert.equal(all.match(/"\[redacted\]"/g)?.length, Object.keys(SECRETS).length);
      for (const secret of Object.values(SECRETS)) assert.ok(!all.includes(secret), `${secret} reached the log`);
    } finally {
      await app.close();
    }
  });

  it("pretty: the server's own calls (connector → PIM, the sandbox) log at debug, so the demo's sync stays out of sight", async () => {
    const lines: string[] = [];
    const app = await loggedApp(database, { LOG_FORMAT: 'pretty', LOG_LEVEL: 'info' }, lines);
    try {
      await app.inject({ method: 'GET', url: '/api/products?limit=1', headers: { 'user-agent': 'Pimbridge-connector/0.1' } });
      await app.inject({ method: 'POST', url: '/sandbox/shopify/demo.myshopify.com/admin/api/2026-10/graphql.json', payload: {} });
      assert.deepEqual(
        lines.filter((l) => /INFO: (GET|POST) /.test(l)),
        [],
      );
      await app.inject({ method: 'GET', url: '/api/products?limit=1', headers: { 'user-agent': 'curl/8.5.0' } });
      assert.equal(lines.filter((l) => /INFO: GET \/api\/products\?limit=1 401 /.test(l)).length, 1, 'a client request is at info');
    } finally {
      await app.close();
    }
    const debugLines: string[] = [];
    const debug = await loggedApp(database, { LOG_FORMAT: 'pretty', LOG_LEVEL: 'debug' }, debugLines);
    try {
      await debug.inject({ method: 'GET', url: '/api/products?limit=1', headers: { 'user-agent': 'Pimbridge-connector/0.1' } });
      assert.equal(debugLines.filter((l) => /DEBUG: GET \/api\/products\?limit=1 401 /.test(l)).length, 1, 'LOG_LEVEL=debug shows them');
    } finally {
      await debug.close();
    }
  });

  it("json: the server's own calls stay info lines like any other (collectors see everything)", async () => {
    const lines: string[] = [];
    const app = await loggedApp(database, { LOG_FORMAT: 'json', LOG_LEVEL: 'info' }, lines);
    try {
      await app.inject({ method: 'GET', url: '/healthz', headers: { 'user-agent': 'Pimbridge-connector/0.1' } });
      const request = lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.msg === 'request');
      assert.equal(request.length, 1);
      assert.equal(request[0].level, 30);
    } finally {
      await app.close();
    }
  });
});

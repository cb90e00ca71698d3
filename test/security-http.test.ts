// What a security probe found over HTTP, kept true: slow clients are cut off in seconds while a steady
// upload goes through (real sockets, short limits); TRUST_PROXY believes only the hops it is told to, never any client;
// wrong admin and metrics tokens are limited per address and logged at warn; every answer carries the security
// headers, authenticated ones `Cache-Control: no-store`, and file downloads `Content-Disposition: attachment`.
import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Response as InjectResponse } from 'light-my-request';
import { loadConfig } from '../src/config.js';
import { ConfigError } from '../src/config/env.js';
import type { LoggerOptions } from '../src/lib/logging.js';
import type { Database } from '../src/db/client.js';
import { startApp } from '../src/server/start-app.js';
import { csv, multipartFile } from './helpers/catalogue-files.js';
import { databaseTargets, harness, type Harness, TEST_ADMIN_TOKEN, type Tenant, type TestApp, testConfig, testRedisUrl } from './helpers/harness.js';
import { twoNodes } from './helpers/redis-nodes.js';

const REDIS_URL = testRedisUrl();
/** The timing cases run on the embedded database only: the database plays no part in them. */
const [EMBEDDED] = databaseTargets();
const KEY = Buffer.alloc(32, 7).toString('base64');
const METRICS_TOKEN = 'metrics-token-0123456789abcdef';

/** An address of a documentation or private block that no other run of this file uses (Redis may be shared). */
const randomAddress = (prefix: string) => `${prefix}.${randomInt(256)}.${randomInt(1, 255)}`;

describe('settings', () => {
  const base = { ADMIN_TOKEN: TEST_ADMIN_TOKEN, ENCRYPTION_KEY: KEY, DATA_DIR: '/nonexistent-security-test-dir' };
  const refused = (env: Record<string, string>, message: RegExp) =>
    assert.throws(
      () => loadConfig({ ...base, ...env }),
      (err: Error) => err instanceof ConfigError && message.test(err.message),
    );

  it('TRUST_PROXY: a hop count or proxy addresses; `true` is refused with what to write instead', () => {
    assert.equal(loadConfig(base).trustProxy, null);
    assert.equal(loadConfig({ ...base, TRUST_PROXY: 'false' }).trustProxy, null);
    assert.equal(loadConfig({ ...base, TRUST_PROXY: '0' }).trustProxy, null);
    assert.deepEqual(loadConfig({ ...base, TRUST_PROXY: '1' }).trustProxy, { hops: 1 });
    assert.deepEqual(loadConfig({ ...base, TRUST_PROXY: ' 10.0.0.0/8, 127.0.0.1 ,::1,fd00::/8,loopback' }).trustProxy, {
      addresses: ['10.0.0.0/8', '127.0.0.1', '::1', 'fd00::/8', 'loopback'],
    });
    for (const value of ['true', 'TRUE', 'yes'])
      refused({ TRUST_PROXY: value }, /^TRUST_PROXY=\w+ is no longer accepted.*TRUST_PROXY=1 behind one load balancer/);
    for (const value of ['11', '10.0.0.0/33', '10.0.0', 'proxy.example.com', '10.0.0.1,,10.0.0.2', '*']) refused({ TRUST_PROXY: value }, /^TRUST_PROXY must/);
  });

  it('HTTP time limits and the admin-token limit: defaults, and bounds', () => {
    const c = loadConfig(base);
    assert.deepEqual(
      [c.httpHeadersTimeoutSeconds, c.httpKeepAliveTimeoutSeconds, c.httpBodyMinBytesPerSecond, c.httpBodyRateWindowSeconds, c.adminAuthRateLimit],
      [10, 72, 1024, 10, 60],
    );
    refused({ HTTP_HEADERS_TIMEOUT_SECONDS: '0' }, /^HTTP_HEADERS_TIMEOUT_SECONDS must be an integer between 1 and 600/);
    // The server's own calls to itself keep idle sockets 4 s (lib/keep-alive.ts): it must not close them sooner.
    refused({ HTTP_KEEP_ALIVE_TIMEOUT_SECONDS: '4' }, /^HTTP_KEEP_ALIVE_TIMEOUT_SECONDS must be an integer between 5 and/);
    refused({ HTTP_BODY_MIN_BYTES_PER_SECOND: '0' }, /^HTTP_BODY_MIN_BYTES_PER_SECOND must/);
    refused({ HTTP_BODY_RATE_WINDOW_SECONDS: 'x' }, /^HTTP_BODY_RATE_WINDOW_SECONDS must/);
    refused({ ADMIN_AUTH_RATE_LIMIT: '0' }, /^ADMIN_AUTH_RATE_LIMIT must/);
  });

  it('with DATABASE_URL /metrics needs a token of its own (or a listener of its own, or none); embedded mode keeps ADMIN_TOKEN', () => {
    const production = { ...base, DATABASE_URL: 'postgres://u@127.0.0.1/db' };
    refused(production, /^METRICS_TOKEN is required when DATABASE_URL is set .*METRICS_PORT.*METRICS_ENABLED=false/);
    refused({ ...production, METRICS_TOKEN: TEST_ADMIN_TOKEN }, /^METRICS_TOKEN must differ from ADMIN_TOKEN/);
    assert.equal(loadConfig({ ...production, METRICS_TOKEN }).metricsToken, METRICS_TOKEN);
    assert.equal(loadConfig({ ...production, METRICS_PORT: '9464' }).metricsToken, null);
    assert.equal(loadConfig({ ...production, METRICS_ENABLED: 'false' }).metricsEnabled, false);
    assert.equal(loadConfig(base).metricsToken, TEST_ADMIN_TOKEN);
  });
});

describe('slow clients, over real sockets with short limits', () => {
  const WINDOW_S = 1;
  const MIN_RATE = 4096;
  let h: Harness;
  let tenant: Tenant;
  let port = 0;
  /** A kept-alive connection left idle after one answer, opened first so that its wait overlaps the other cases. */
  let idle: Promise<{ answer: string; answeredAt: number; closedAt: number | null }>;
  before(async () => {
    h = await harness(EMBEDDED, {
      HTTP_HEADERS_TIMEOUT_SECONDS: '1',
      HTTP_BODY_RATE_WINDOW_SECONDS: String(WINDOW_S),
      HTTP_BODY_MIN_BYTES_PER_SECOND: String(MIN_RATE),
      HTTP_KEEP_ALIVE_TIMEOUT_SECONDS: '5',
    });
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    port = (h.app.server.address() as net.AddressInfo).port;
    idle = new Promise((resolve) => {
      let answer = '';
      let answeredAt = 0;
      const socket = net.connect(port, '127.0.0.1');
      socket.setEncoding('utf8');
      socket.on('error', () => {});
      socket.on('data', (d: string) => {
        answer += d;
        answeredAt ||= Date.now();
      });
      const deadline = setTimeout(() => {
        resolve({ answer, answeredAt, closedAt: null });
        socket.destroy();
      }, 15_000);
      socket.on('close', () => {
        clearTimeout(deadline);
        resolve({ answer, answeredAt, closedAt: Date.now() });
      });
      socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    });
    tenant = await h.tenant();
  });
  after(() => h.close());

  /**
   * Sends `head` at once, then `drip` one byte every `everyMs`; resolves with what the server answered when it closes
   * the connection, or at `deadlineMs` (closedAfterMs null: it held the connection that long).
   */
  const dribble = (head: string, drip: string, everyMs = 300, deadlineMs = 6_000) =>
    new Promise<{ answer: string; closedAfterMs: number | null }>((resolve) => {
      const started = Date.now();
      let answer = '';
      let sent = 0;
      const socket = net.connect(port, '127.0.0.1');
      socket.setEncoding('utf8');
      socket.on('data', (d: string) => (answer += d));
      socket.on('error', () => {});
      const timer = setInterval(() => {
        if (sent < drip.length && socket.writable) socket.write(drip[sent++]);
      }, everyMs);
      const finish = (closedAfterMs: number | null) => {
        clearInterval(timer);
        clearTimeout(deadline);
        resolve({ answer, closedAfterMs });
      };
      const deadline = setTimeout(() => {
        finish(null);
        socket.destroy();
      }, deadlineMs);
      socket.on('close', () => finish(Date.now() - started));
      if (head) socket.write(head);
    });

  const assertCutOff = (got: { answer: string; closedAfterMs: number | null }, withinMs: number) => {
    assert.ok(got.closedAfterMs !== null, `the connection was still open after the deadline; answered: ${JSON.stringify(got.answer)}`);
    assert.ok(got.closedAfterMs <= withinMs, `closed after ${got.closedAfterMs} ms`);
    assert.match(got.answer, /^HTTP\/1\.1 408 Request Timeout\r\n/);
    assert.match(got.answer, /\r\nConnection: close\r\n/i);
  };

  it('headers sent one byte at a time get their 408 within seconds', async () => {
    const got = await dribble('POST /api/session HTTP/1.1\r\nHost: 127.0.0.1\r\n', `X-Slow: ${'a'.repeat(100)}`);
    assertCutOff(got, 3_000);
    assert.match(got.answer, /headers did not arrive in time/);
  });

  it('a connection that sends nothing is answered 408 at the headers limit', async () => {
    assertCutOff(await dribble('', ''), 3_000);
  });

  const body = 'x'.repeat(1_000);
  const slowBodies: [string, () => string][] = [
    ['POST /webhooks/shopify', () => 'Content-Type: application/json\r\nX-Shopify-Topic: products/update\r\nX-Shopify-Shop-Domain: a.myshopify.com\r\n'],
    ['POST /api/session', () => 'Content-Type: application/json\r\n'],
    ['POST /api/imports', () => `X-API-KEY: ${tenant.apiKey}\r\nContent-Type: multipart/form-data; boundary=b0undary\r\n`],
  ];
  for (const [request, headers] of slowBodies) {
    it(`a body sent one byte every 300 ms to ${request} is cut off within seconds`, async () => {
      const head = `${request} HTTP/1.1\r\nHost: 127.0.0.1\r\n${headers()}Content-Length: ${body.length}\r\n\r\n`;
      const got = await dribble(head, body);
      assertCutOff(got, 3_500);
      assert.match(got.answer, /request body arrived at \d+ bytes\/s, below the minimum of 4096 bytes\/s/);
    });
  }

  it('an upload that keeps coming above the minimum rate may take longer than the window: 202', async () => {
    const rows: string[][] = [['sku', 'name', 'price']];
    for (let i = 0; rows.length < 6_000; i++) rows.push([`SLOW-UPLOAD-${i}`, `Streamed product number ${i}`, '9.99']);
    const { body: file, contentType } = multipartFile(csv(rows));
    const chunk = 8 * 1024;
    const started = Date.now();
    const res = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: '/api/imports',
          headers: { 'x-api-key': tenant.apiKey, 'content-type': contentType, 'content-length': file.length },
        },
        (answer) => {
          let text = '';
          answer.setEncoding('utf8').on('data', (d: string) => (text += d));
          answer.on('end', () => resolve({ status: answer.statusCode ?? 0, text }));
        },
      );
      req.on('error', reject);
      // About 130 KB/s: 30 times the minimum, as a slow office uplink would send it.
      let offset = 0;
      const timer = setInterval(() => {
        req.write(file.subarray(offset, offset + chunk));
        offset += chunk;
        if (offset >= file.length) {
          clearInterval(timer);
          req.end();
        }
      }, 60);
    });
    assert.equal(res.status, 202, res.text);
    assert.ok(Date.now() - started > WINDOW_S * 1000 + 200, `the upload took ${Date.now() - started} ms, more than one window`);
  });

  it('an idle kept-alive connection is closed after HTTP_KEEP_ALIVE_TIMEOUT_SECONDS', async () => {
    const got = await idle;
    assert.match(got.answer, /^HTTP\/1\.1 200 /);
    assert.ok(got.closedAt !== null, 'the idle connection was still open 15 s later');
    const idleMs = got.closedAt - got.answeredAt;
    assert.ok(idleMs >= 4_500 && idleMs <= 7_500, `closed ${idleMs} ms after the answer`);
  });
});

/** inject() from `ip`. */
const from = (app: TestApp, ip: string, opts: { method?: string; url: string; payload?: unknown; headers?: Record<string, string> }) =>
  app.inject({
    method: (opts.method ?? 'GET') as never,
    url: opts.url,
    remoteAddress: ip,
    payload: opts.payload as never,
    headers: opts.headers,
  }) as Promise<InjectResponse>;

for (const target of databaseTargets()) {
  describe(`per-address limits and security headers (${target.name})`, () => {
    // One database; an app for each setting under test over it (as nodes of one deployment would be).
    let database: Database;
    const apps: TestApp[] = [];
    const build = async (env: Record<string, string>, logger: LoggerOptions | false = false) => {
      const app = await startApp({ config: testConfig(env), database, logger });
      apps.push(app);
      await app.ready();
      return app;
    };
    before(async () => {
      database = await target.open();
      await database.migrate();
    });
    after(async () => {
      for (const app of apps) await app.close();
      await database.close();
    });

    describe('TRUST_PROXY: whose X-Forwarded-For counts', () => {
      // The defaults: 120 sign-ins (PIM writes) per minute per address.
      const LIMITS = { PIM_RATE_LIMIT_READ: '600', PIM_RATE_LIMIT_WRITE: '120' };
      const wrongSignIns = async (app: TestApp, socketAddress: string, forwardedFor: (i: number) => string) => {
        const statuses: number[] = [];
        for (let i = 0; i < 130; i++) {
          const res = await from(app, socketAddress, {
            method: 'POST',
            url: '/api/session',
            payload: { api_key: `pk_guess_${i}`, api_secret: 'wrong' },
            headers: { 'x-forwarded-for': forwardedFor(i) },
          });
          statuses.push(res.statusCode);
        }
        return { 401: statuses.filter((s) => s === 401).length, 429: statuses.filter((s) => s === 429).length };
      };

      it('TRUST_PROXY=1 (one load balancer): 130 wrong sign-ins with a rotating X-Forwarded-For get 429 once the limit is spent', async () => {
        const app = await build({ ...LIMITS, TRUST_PROXY: '1' });
        // The client writes what it likes in X-Forwarded-For; the balancer (the socket's address) appends the address it
        // saw. Only that last entry is believed.
        const client = randomAddress('203.0');
        assert.deepEqual(await wrongSignIns(app, '127.0.0.1', (i) => `198.51.100.${i % 250}, ${client}`), { 401: 120, 429: 10 });
        // Another client behind the same balancer has a budget of its own.
        const other = await from(app, '127.0.0.1', {
          method: 'POST',
          url: '/api/session',
          payload: { api_key: 'k', api_secret: 's' },
          headers: { 'x-forwarded-for': randomAddress('203.1') },
        });
        assert.equal(other.statusCode, 401);
      });

      it('without TRUST_PROXY X-Forwarded-For is ignored: the socket address is limited', async () => {
        const app = await build(LIMITS);
        assert.deepEqual(await wrongSignIns(app, randomAddress('10.77'), (i) => `198.51.100.${i % 250}`), { 401: 120, 429: 10 });
      });

      it("TRUST_PROXY as the proxies' addresses: a hop is believed only from them", async () => {
        const app = await build({ ...LIMITS, TRUST_PROXY: '10.0.0.0/8, 127.0.0.1' });
        // The PIM's read limit shows whose budget a request spent.
        const remaining = async (socket: string, xff: string) =>
          Number((await from(app, socket, { url: '/api/products', headers: { 'x-forwarded-for': xff } })).headers['x-ratelimit-remaining']);
        const client = randomAddress('203.0');
        // Through two trusted proxies (127.0.0.1 ← 10.1.2.3 ← client): the client's budget, whatever it wrote before.
        assert.equal(await remaining('127.0.0.1', `192.0.2.1, ${client}, 10.1.2.3`), 599);
        assert.equal(await remaining('127.0.0.1', `192.0.2.2, ${client}, 10.1.2.3`), 598);
        // Straight from an address that is not a proxy: its own budget, the header ignored.
        const direct = randomAddress('172.16');
        assert.equal(await remaining(direct, client), 599);
        assert.equal(await remaining(direct, client), 598);
      });
    });

    describe('admin and metrics tokens: limited per address, failures logged', () => {
      const LIMIT = 60; // ADMIN_AUTH_RATE_LIMIT's default
      let app: TestApp;
      const logLines: Record<string, unknown>[] = [];
      before(async () => {
        app = await build({ METRICS_TOKEN }, { level: 'warn', stream: { write: (line: string) => void logLines.push(JSON.parse(line)) } });
      });

      for (const [name, url, token, refusal] of [
        ['admin API', '/admin/organizations', TEST_ADMIN_TOKEN, /Missing or invalid admin token/],
        ['metrics', '/metrics', METRICS_TOKEN, /Missing or invalid metrics token/],
      ] as const) {
        it(`${name}: 200 wrong tokens from one address get ${LIMIT} × 401, then 429 with Retry-After, the right token too`, async () => {
          const guesser = randomAddress('10.66');
          const wrong = `wrong-${name.replace(/\W/g, '')}-token-0123456789`;
          const answers: InjectResponse[] = [];
          for (let i = 0; i < 200; i++) answers.push(await from(app, guesser, { url, headers: { authorization: `Bearer ${wrong}${i}` } }));
          const statuses = answers.map((res) => res.statusCode);
          const last = answers[199];
          assert.match(answers[0].json().error, refusal);
          assert.deepEqual(statuses.slice(0, LIMIT), Array(LIMIT).fill(401));
          assert.deepEqual(statuses.slice(LIMIT), Array(200 - LIMIT).fill(429));
          assert.match(String(last.headers['retry-after']), /^\d+$/);
          assert.doesNotMatch(last.body, /pimbridge_|process_/);
          const blocked = await from(app, guesser, { url, headers: { authorization: `Bearer ${token}` } });
          assert.equal(blocked.statusCode, 429, 'the right token is refused too while the address is over the limit');
          assert.match(blocked.json().error, /too many wrong/i);
          // Another address, and the right token from it, are not affected.
          assert.equal((await from(app, randomAddress('10.67'), { url, headers: { authorization: `Bearer ${token}` } })).statusCode, 200);
          // One warning per failure, with the address and never the token; the 429s only at debug (below this log level).
          const warnings = logLines.filter((l) => l.level === 40 && l.ip === guesser);
          assert.equal(warnings.length, LIMIT);
          assert.ok(warnings.every((w) => String(w.msg).startsWith(name)));
          assert.doesNotMatch(JSON.stringify(warnings), new RegExp(`${wrong}|${token}`));
        });
      }

      it('a right token never spends the budget', async () => {
        const operator = randomAddress('10.68');
        for (let i = 0; i < LIMIT + 10; i++) {
          assert.equal((await from(app, operator, { url: '/admin/organizations', headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } })).statusCode, 200);
        }
        assert.equal((await from(app, operator, { url: '/admin/organizations', headers: { authorization: 'Bearer nope-nope-nope-nope' } })).statusCode, 401);
      });
    });

    describe('security headers on every answer', () => {
      let app: TestApp;
      let tenant: Tenant;
      let connectorToken: string;
      let importId: string;
      let sessionCookie: string;
      const admin = (method: string, url: string, payload?: unknown) =>
        app.inject({ method: method as never, url, payload: payload as never, headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } });
      before(async () => {
        app = await build({ METRICS_TOKEN, CONNECTOR_ALLOW_PRIVATE_NETWORKS: 'true' });
        await app.listen({ port: 0, host: '127.0.0.1' });
        const pimUrl = `http://127.0.0.1:${(app.server.address() as net.AddressInfo).port}`;
        const org = (await admin('POST', '/admin/organizations', { name: 'Headers' })).json();
        const key = (await admin('POST', `/admin/organizations/${org.id}/api-keys`, {})).json();
        tenant = { organizationId: org.id, apiKey: key.api_key, apiSecret: key.api_secret, keyId: key.id };
        const domain = `headers-${process.pid}-${randomInt(1e9)}.myshopify.com`;
        const shop = await admin('POST', '/admin/shops', { domain, platform: 'shopify', organization_id: org.id, access_token: 'shpat_headers' });
        assert.equal(shop.statusCode, 201, shop.body);
        const connected = await app.inject({
          method: 'POST',
          url: '/api/connect',
          payload: { shop_domain: domain, pim_base_url: pimUrl, pim_api_key: tenant.apiKey, pim_api_secret: tenant.apiSecret },
        });
        assert.equal(connected.statusCode, 200, connected.body);
        connectorToken = connected.json().data.api_token;
        const { body, contentType } = multipartFile(
          csv([
            ['sku', 'name', 'price'],
            ['HDR-1', 'Header check', '1.00'],
          ]),
        );
        const upload = await app.inject({
          method: 'POST',
          url: '/api/imports',
          payload: body,
          headers: { 'x-api-key': tenant.apiKey, 'content-type': contentType },
        });
        assert.equal(upload.statusCode, 202, upload.body);
        importId = upload.json().data.id;
        const signIn = await app.inject({ method: 'POST', url: '/api/session', payload: { api_key: tenant.apiKey, api_secret: tenant.apiSecret } });
        assert.equal(signIn.statusCode, 200, signIn.body);
        sessionCookie = String(signIn.headers['set-cookie']).split(';')[0];
      });

      const get = (url: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url, headers }) as Promise<InjectResponse>;
      const key = () => ({ 'x-api-key': tenant.apiKey });
      const assertBaseHeaders = (what: string, res: InjectResponse) => {
        assert.equal(res.headers['x-content-type-options'], 'nosniff', what);
        assert.equal(res.headers['x-frame-options'], 'DENY', what);
        assert.match(String(res.headers['content-security-policy']), /frame-ancestors 'none'/, what);
        assert.equal(res.headers['referrer-policy'], 'no-referrer', what);
      };

      it('authenticated answers (PIM by key and by session, connector, admin, metrics, CSV) carry them and Cache-Control: no-store', async () => {
        const answers: [string, InjectResponse, number][] = [
          ['PIM, X-API-KEY', await get('/api/products', key()), 200],
          ['PIM, session cookie', await get('/api/products', { cookie: sessionCookie }), 200],
          ['PIM, no key', await get('/api/products'), 401],
          ['connector, bearer', await get('/api/tokens', { authorization: `Bearer ${connectorToken}` }), 200],
          ['connector, wrong bearer', await get('/api/tokens', { authorization: 'Bearer pbt_wrong' }), 401],
          ['admin', await get('/admin/organizations', { authorization: `Bearer ${TEST_ADMIN_TOKEN}` }), 200],
          ['metrics', await get('/metrics', { authorization: `Bearer ${METRICS_TOKEN}` }), 200],
          ['export CSV', await get('/api/exports/products.csv', key()), 200],
          ['import errors CSV', await get(`/api/imports/${importId}/errors.csv`, key()), 200],
        ];
        for (const [what, res, status] of answers) {
          assert.equal(res.statusCode, status, `${what}: ${res.body.slice(0, 200)}`);
          assertBaseHeaders(what, res);
          assert.equal(res.headers['cache-control'], 'no-store', what);
        }
        // API answers load nothing and run nothing.
        assert.match(String(answers[0][1].headers['content-security-policy']), /default-src 'none'/);
      });

      it('so do the public answers, errors and pages: health, an unknown route, a bad URL, /docs, the console', async () => {
        for (const [what, url] of [
          ['healthz', '/healthz'],
          ['unknown route', '/api/nothing-here'],
          ['bad percent-encoding', '/api/products/%E0%A4%A'],
          ['public connector route', '/api/system/status'],
          ['OpenAPI document', '/docs/openapi.json'],
          ['docs page', '/docs'],
          ['console page', '/'],
        ] as const) {
          assertBaseHeaders(what, await get(url));
        }
      });

      it('/docs has a policy of its own: its scripts, styles and requests on this origin, no inline script', async () => {
        const page = await get('/docs/');
        assert.equal(page.statusCode, 200);
        const csp = String(page.headers['content-security-policy']);
        assert.match(csp, /script-src 'self'(;|$)/);
        assert.match(csp, /connect-src 'self'/);
        assert.doesNotMatch(csp, /script-src[^;]*unsafe-inline/);
        assert.doesNotMatch(page.body, /<script(?![^>]*\ssrc=)[^>]*>/, 'swagger-ui serves no inline script');
        assert.equal((await get('/docs/static/swagger-ui-bundle.js')).statusCode, 200);
      });

      it('file downloads are attachments: errors.csv and the export', async () => {
        const errors = await get(`/api/imports/${importId}/errors.csv`, key());
        assert.equal(errors.headers['content-disposition'], `attachment; filename="import-${importId}-errors.csv"`);
        assert.match(String(errors.headers['content-type']), /^text\/csv/);
        const exported = await get('/api/exports/products.csv', key());
        assert.equal(exported.headers['content-disposition'], 'attachment; filename="products-ours.csv"');
      });
    });
  });
}

// Only with TEST_REDIS_URL (test/helpers/harness.ts): two nodes share one budget, as they share the APIs' limits.
for (const target of REDIS_URL ? databaseTargets().slice(-1) : []) {
  describe('wrong admin tokens counted across nodes through Redis', () => {
    it('two nodes on one Redis share the per-address budget', async () => {
      const nodes = await twoNodes(target, { ADMIN_AUTH_RATE_LIMIT: '3' });
      try {
        const ip = randomAddress('198.18');
        const wrong = { url: '/admin/organizations', headers: { authorization: 'Bearer nope-nope-nope-nope' } };
        assert.equal((await from(nodes.a, ip, wrong)).statusCode, 401);
        assert.equal((await from(nodes.b, ip, wrong)).statusCode, 401);
        assert.equal((await from(nodes.a, ip, wrong)).statusCode, 401);
        assert.equal((await from(nodes.b, ip, wrong)).statusCode, 429);
        assert.equal((await from(nodes.a, ip, { url: '/admin/organizations', headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } })).statusCode, 429);
      } finally {
        await nodes.close();
      }
    });
  });
}

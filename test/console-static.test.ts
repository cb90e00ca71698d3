// The console's page at `/`: index.html and hashed assets from CONSOLE_DIR under a strict CSP; other page paths answer
// index.html; unknown API paths stay 404 in their own envelopes; without a build, a page that says how to build.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { databaseTargets, harness, type Harness } from './helpers/harness.js';

const [pglite] = databaseTargets();

describe('console page', () => {
  let dir: string;
  let h: Harness;
  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'console-dist-'));
    mkdirSync(path.join(dir, 'assets'));
    writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>Pimbridge</title><script type="module" src="/assets/index-abc123.js"></script>');
    writeFileSync(path.join(dir, 'assets', 'index-abc123.js'), 'console.log(1)');
    h = await harness(pglite, { CONSOLE_DIR: dir });
  });
  after(async () => {
    await h.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('`/` and page paths answer index.html with a CSP that allows no inline script', async () => {
    for (const url of ['/', '/products', '/products/12', '/bridge/3/mappings?status=error']) {
      const res = await h.app.inject({ method: 'GET', url });
      assert.equal(res.statusCode, 200, url);
      assert.match(String(res.headers['content-type']), /text\/html/);
      assert.match(res.body, /<title>Pimbridge<\/title>/);
      assert.equal(res.headers['cache-control'], 'no-cache');
      const csp = String(res.headers['content-security-policy']);
      assert.match(csp, /script-src 'self'(;|$)/);
      assert.doesNotMatch(csp, /script-src[^;]*unsafe-inline/);
      assert.match(csp, /frame-ancestors 'none'/);
      assert.equal(res.headers['x-content-type-options'], 'nosniff');
    }
  });

  test('hashed assets are cached for a year', async () => {
    const res = await h.app.inject({ method: 'GET', url: '/assets/index-abc123.js' });
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['cache-control']), /max-age=31536000, immutable/);
  });

  test("assets go out as the build's brotli or gzip copy when the browser takes it, else as they are", async () => {
    const code = `export const pages = ${JSON.stringify(Array.from({ length: 200 }, (_, i) => `page ${i}`))};`;
    writeFileSync(path.join(dir, 'assets', 'big-abc123.js'), code);
    writeFileSync(path.join(dir, 'assets', 'big-abc123.js.br'), brotliCompressSync(code));
    writeFileSync(path.join(dir, 'assets', 'big-abc123.js.gz'), gzipSync(code));
    const get = (encoding?: string) => h.app.inject({ method: 'GET', url: '/assets/big-abc123.js', headers: encoding ? { 'accept-encoding': encoding } : {} });
    const br = await get('gzip, deflate, br, zstd');
    assert.equal(br.statusCode, 200);
    assert.equal(br.headers['content-encoding'], 'br');
    assert.equal(brotliDecompressSync(br.rawPayload).toString(), code);
    assert.ok(br.rawPayload.length < code.length / 3, `${br.rawPayload.length} bytes for ${code.length}`);
    const gz = await get('gzip');
    assert.equal(gz.headers['content-encoding'], 'gzip');
    assert.equal(gunzipSync(gz.rawPayload).toString(), code);
    const plain = await get();
    assert.equal(plain.headers['content-encoding'], undefined);
    assert.equal(plain.body, code);
    for (const res of [br, gz, plain]) {
      assert.match(String(res.headers['content-type']), /javascript/);
      assert.match(String(res.headers.vary), /accept-encoding/i);
      assert.match(String(res.headers['cache-control']), /max-age=31536000, immutable/);
    }
  });

  test('a rebuild is served without a restart', async () => {
    writeFileSync(path.join(dir, 'assets', 'index-def456.js'), 'console.log(2)');
    const res = await h.app.inject({ method: 'GET', url: '/assets/index-def456.js' });
    assert.equal(res.statusCode, 200);
    assert.equal(res.body, 'console.log(2)');
    assert.equal((await h.app.inject({ method: 'GET', url: '/assets/missing.js' })).statusCode, 404);
  });

  test('unknown API paths stay 404 in their envelopes', async () => {
    const pim = await h.app.inject({ method: 'GET', url: '/api/nothing-here' });
    assert.equal(pim.statusCode, 404);
    assert.deepEqual(pim.json(), { status: 0, data: null, error: 'Route GET /api/nothing-here not found' });
    const admin = await h.app.inject({ method: 'GET', url: '/admin/nothing-here' });
    assert.equal(admin.statusCode, 404);
    assert.equal(admin.json().status, undefined);
    const post = await h.app.inject({ method: 'POST', url: '/products' });
    assert.equal(post.statusCode, 404);
    // Only the console's own paths are the page: anything else is the APIs' 404, as before the console existed.
    for (const url of ['/nothing-here', '/media/../etc/passwd', '/productsx']) {
      const other = await h.app.inject({ method: 'GET', url });
      assert.equal(other.statusCode, 404, url);
      assert.equal(other.json().status, 0, url);
    }
  });

  test('without a build, `/` says how to build it and the APIs still answer', async () => {
    const bare = await harness(pglite, { CONSOLE_DIR: path.join(dir, 'missing') });
    try {
      const res = await bare.app.inject({ method: 'GET', url: '/' });
      assert.equal(res.statusCode, 503);
      assert.match(res.body, /npm run build/);
      assert.equal((await bare.app.inject({ method: 'GET', url: '/api/nothing' })).statusCode, 404);
    } finally {
      await bare.close();
    }
  });
});

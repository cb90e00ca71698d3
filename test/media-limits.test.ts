// Media limits on both databases, against a real local image server: the per-organization storage quota
// (MEDIA_QUOTA_BYTES), the download concurrency cap (MEDIA_DOWNLOAD_CONCURRENCY), and a deleted organization's files.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import type http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { loadConfig } from '../src/config.js';
import { databaseTargets, harness, TEST_ADMIN_TOKEN, type Harness, type Tenant } from './helpers/harness.js';
import { assertError, createProduct, listIds, okData, type Call } from './helpers/pim.js';
import { makeImage, serveHttp, type TestServer } from './helpers/servers.js';
import { sqlRows } from './helpers/sql.js';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('MEDIA_QUOTA_BYTES, MEDIA_DOWNLOAD_CONCURRENCY', () => {
  it('default to 5 GiB per organization and 8 downloads; 0 turns the quota off', () => {
    const base = { ADMIN_TOKEN: TEST_ADMIN_TOKEN, DATA_DIR: '/nonexistent-test-data-dir', ENCRYPTION_KEY: Buffer.alloc(32, 2).toString('base64') };
    const config = loadConfig(base);
    assert.equal(config.mediaQuotaBytes, 5 * 1024 ** 3);
    assert.equal(config.mediaDownloadConcurrency, 8);
    assert.equal(loadConfig({ ...base, MEDIA_QUOTA_BYTES: '0' }).mediaQuotaBytes, 0);
    assert.throws(() => loadConfig({ ...base, MEDIA_DOWNLOAD_CONCURRENCY: '0' }), /MEDIA_DOWNLOAD_CONCURRENCY must be an integer/);
    assert.throws(() => loadConfig({ ...base, MEDIA_QUOTA_BYTES: '1GB' }), /MEDIA_QUOTA_BYTES must be an integer/);
  });
});

for (const target of databaseTargets()) {
  describe(`media limits (${target.name})`, () => {
    let h: Harness;
    let dataDir: string;
    let images: TestServer;
    const files: Record<string, Buffer> = {};
    /** Requests to /held/… wait here until released. */
    const held: (() => void)[] = [];
    let holding = true;
    let inFlight = 0;
    let maxInFlight = 0;
    const arrivals: (() => void)[] = [];

    const respond = (res: http.ServerResponse, body: Buffer) => {
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': body.length });
      res.end(body);
    };

    before(async () => {
      files['/a.png'] = await makeImage('png', 40, 30, [220, 30, 30]);
      files['/b.png'] = await makeImage('png', 90, 70, [30, 30, 220]);
      files['/c.png'] = await makeImage('png', 20, 20, [30, 200, 30]);
      files['/p.png'] = await makeImage('png', 24, 24, [250, 100, 180]);
      files['/s.png'] = await makeImage('png', 26, 26, [250, 150, 0]);
      for (const n of [1, 2, 3, 4, 5]) files[`/held/${n}.png`] = await makeImage('png', 10 + n, 10, [n * 50, 20, 20]);
      assert.ok(files['/c.png'].length <= files['/b.png'].length, 'c fits where b was');
      images = await serveHttp((req, res) => {
        const body = files[req.url ?? ''];
        if (!body) {
          res.writeHead(404);
          return res.end();
        }
        inFlight++;
        maxInFlight = Math.max(maxInFlight, inFlight);
        res.on('close', () => inFlight--);
        for (const arrived of arrivals.splice(0)) arrived();
        if (req.url?.startsWith('/held/') && holding) held.push(() => respond(res, body));
        else respond(res, body);
      });
      dataDir = mkdtempSync(path.join(tmpdir(), 'pimbridge-media-limits-'));
      h = await harness(target, {
        DATA_DIR: dataDir,
        MEDIA_ALLOW_PRIVATE_NETWORKS: 'true',
        MEDIA_QUOTA_BYTES: String(files['/a.png'].length + files['/b.png'].length),
        MEDIA_DOWNLOAD_CONCURRENCY: '1',
      });
    });
    after(async () => {
      await h.close();
      await images.close();
      rmSync(dataDir, { recursive: true, force: true });
    });

    const attach = (c: Call, productId: number, file: string) => c('POST', `/api/products/${productId}/media`, { file_url: `${images.url}${file}` });
    const fileOnDisk = (file: string) => {
      const key = `${sha256(files[file])}.png`;
      return path.join(dataDir, 'media', key.slice(0, 2), key);
    };
    const nextArrival = () => new Promise<void>((resolve) => arrivals.push(resolve));

    describe('storage quota per organization', () => {
      let t: Tenant;
      let call: Call;
      before(async () => {
        t = await h.tenant();
        call = h.as(t);
      });

      it('counts each distinct file once; a new file that does not fit is a 400 naming the quota, and nothing is stored', async () => {
        const p1 = await createProduct(call);
        const p2 = await createProduct(call);
        okData(await attach(call, p1.id, '/a.png'), 201);
        okData(await attach(call, p2.id, '/a.png'), 201); // the same file again: no extra bytes
        okData(await attach(call, p1.id, '/b.png'), 201); // a + b is exactly the quota
        const refused = assertError(await attach(call, p2.id, '/c.png'), 400, /quota exceeded/i);
        assert.match(refused, /delete media to make room/);
        assert.ok(!existsSync(fileOnDisk('/c.png')), 'the refused file was not stored');
        assert.equal(okData(await call('GET', `/api/products/${p2.id}/media`)).total, 1);
        // A file the organization already stores still attaches to another product.
        const p3 = await createProduct(call);
        okData(await attach(call, p3.id, '/b.png'), 201);
      });

      it('is per organization: another one stores the same and other files within its own quota', async () => {
        const other = h.as(await h.tenant());
        const p = await createProduct(other);
        okData(await attach(other, p.id, '/c.png'), 201);
        okData(await attach(other, p.id, '/a.png'), 201);
      });

      it('deleting media makes room again', async () => {
        const p = await createProduct(call);
        assertError(await attach(call, p.id, '/c.png'), 400, /quota exceeded/i);
        for (const id of await listIds(call, 'limit=100')) {
          for (const m of okData(await call('GET', `/api/products/${id}/media`)).media as { id: number; size_bytes: number }[]) {
            if (m.size_bytes === files['/b.png'].length) okData(await call('DELETE', `/api/products/${id}/media/${m.id}`));
          }
        }
        okData(await attach(call, p.id, '/c.png'), 201);
      });
    });

    describe('download concurrency', () => {
      it('runs MEDIA_DOWNLOAD_CONCURRENCY downloads at once, queues as many, and answers 429 with Retry-After beyond', async () => {
        const t = await h.tenant();
        const call = h.as(t);
        const p = await createProduct(call);
        maxInFlight = 0;
        holding = true;
        const first = nextArrival();
        const running = attach(call, p.id, '/held/1.png');
        await first; // the one slot is taken, and held at the image server
        const second = attach(call, p.id, '/held/2.png');
        const third = attach(call, p.id, '/held/3.png');
        // One of them waits for the slot; the other finds the queue full and is answered at once.
        const refused = await Promise.race([second, third]);
        assertError(refused, 429, /too many media downloads/i);
        assert.match(String(refused.headers['retry-after']), /^[1-9]\d*$/);
        holding = false;
        for (const release of held.splice(0)) release();
        const answers = await Promise.all([running, second, third]);
        assert.deepEqual(answers.map((r) => r.statusCode).sort(), [201, 201, 429]);
        assert.equal(maxInFlight, 1, 'never more than one download at the image server');
        okData(await attach(call, p.id, '/held/4.png'), 201);
      });
    });

    describe('deleting an organization', () => {
      it('DELETE /admin/organizations/{id} removes its data and the files no other organization uses', async () => {
        const gone = await h.tenant();
        const stays = await h.tenant();
        const call = h.as(gone);
        const p = await createProduct(call);
        const parent = okData(await call('POST', '/api/categories', { name: 'Parent' }), 201);
        okData(await call('POST', '/api/categories', { name: 'Child', parent_id: parent.id }), 201);
        okData(await attach(call, p.id, '/p.png'), 201);
        okData(await attach(call, p.id, '/s.png'), 201);
        const kept = await createProduct(h.as(stays));
        const shared = okData(await attach(h.as(stays), kept.id, '/s.png'), 201);
        assert.ok(existsSync(fileOnDisk('/p.png')) && existsSync(fileOnDisk('/s.png')));

        const res = await h.admin('DELETE', `/admin/organizations/${gone.organizationId}`);
        assert.equal(res.statusCode, 204, res.body);
        assert.ok(!existsSync(fileOnDisk('/p.png')), 'its own file is removed');
        assert.ok(existsSync(fileOnDisk('/s.png')), 'a file another organization uses stays');
        assert.equal((await h.app.inject({ method: 'GET', url: new URL(shared.url).pathname })).statusCode, 200);
        assertError(await call('GET', '/api/products'), 401);
        const orgs = (await h.admin('GET', '/admin/organizations')).json().organizations.map((o: { id: number }) => o.id);
        assert.ok(!orgs.includes(gone.organizationId) && orgs.includes(stays.organizationId));
        // Nothing reads a deleted organization's data any more: the tables themselves.
        for (const table of ['products', 'product_media', 'categories', 'api_keys']) {
          const [row] = await sqlRows<{ n: number }>(
            h.database.db,
            sql`SELECT count(*)::int AS n FROM ${sql.identifier(table)} WHERE organization_id = ${gone.organizationId}`,
          );
          assert.equal(row.n, 0, `${table} rows are gone`);
        }
        assert.equal((await h.admin('DELETE', `/admin/organizations/${gone.organizationId}`)).statusCode, 404);
      });

      it('a media download in flight when its organization is deleted stores nothing', async () => {
        const gone = await h.tenant();
        const call = h.as(gone);
        const p = await createProduct(call);
        holding = true;
        const arrived = nextArrival();
        const adding = attach(call, p.id, '/held/5.png');
        await arrived;
        assert.equal((await h.admin('DELETE', `/admin/organizations/${gone.organizationId}`)).statusCode, 204);
        holding = false;
        for (const release of held.splice(0)) release();
        assertError(await adding, 404);
        assert.ok(!existsSync(fileOnDisk('/held/5.png')), 'no file left behind');
        assert.ok(
          readdirSync(path.join(dataDir, 'media'), { recursive: true })
            .map(String)
            .every((f) => !f.includes('.tmp-')),
          'no temporary file either',
        );
      });
    });
  });
}

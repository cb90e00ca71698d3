// Product media routes on both databases, against a real local image server: attach (201), duplicates (200, stored
// once), positions, list/get/delete, the public file route, 404s, tenant isolation, and the SSRF rule at the API.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { databaseTargets, harness, type Harness, type Tenant } from './helpers/harness.js';
import { form, type Part } from './helpers/form.js';
import { assertError, createProduct, instantBetween, listIds, okData, type Call } from './helpers/pim.js';
import { makeImage, serveHttp, type TestServer } from './helpers/servers.js';

const MEDIA_KEYS = ['alt_text', 'created_at', 'height', 'id', 'mime_type', 'position', 'product_id', 'size_bytes', 'url', 'width'];
const PUBLIC_URL = 'https://cdn.example.test/pim';
const KEY_URL = new RegExp(`^${PUBLIC_URL.replace(/\./g, '\\.')}/media/([0-9a-f]{64})\\.(png|jpg|webp|gif)$`);

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

interface Fixture {
  body: Buffer;
  type: string;
}

for (const target of databaseTargets()) {
  describe(`media (${target.name})`, () => {
    let h: Harness;
    let t: Tenant;
    let call: Call;
    let dataDir: string;
    let images: TestServer;
    const files: Record<string, Fixture> = {};

    before(async () => {
      files['/red.png'] = { body: await makeImage('png', 40, 30, [220, 30, 30]), type: 'image/png' };
      files['/red-copy.png'] = files['/red.png'];
      files['/blue.jpg'] = { body: await makeImage('jpeg', 64, 48, [30, 30, 220]), type: 'image/jpeg' };
      files['/green.webp'] = { body: await makeImage('webp', 20, 50, [30, 200, 30]), type: 'image/webp' };
      files['/grey.gif'] = { body: await makeImage('gif', 16, 16, [128, 128, 128]), type: 'image/gif' };
      files['/yellow.png'] = { body: await makeImage('png', 33, 33, [230, 230, 20]), type: 'image/png' };
      files['/cyan.png'] = { body: await makeImage('png', 35, 20, [20, 230, 230]), type: 'image/png' };
      files['/pink.png'] = { body: await makeImage('png', 12, 70, [250, 100, 180]), type: 'image/png' };
      files['/orange.png'] = { body: await makeImage('png', 25, 25, [250, 150, 0]), type: 'image/png' };
      files['/violet.png'] = { body: await makeImage('png', 30, 18, [140, 40, 220]), type: 'image/png' };
      // Only the PATCH case uses these (other cases count who shares a stored file).
      for (const [i, name] of ['/move-1.png', '/move-2.png', '/move-3.png', '/move-4.png'].entries()) {
        files[name] = { body: await makeImage('png', 20 + i, 20, [10 + 60 * i, 90, 40]), type: 'image/png' };
      }
      // A text file that claims to be a PNG, and a PNG whose tail was cut off.
      files['/fake.png'] = { body: Buffer.from('this is not an image at all\n'), type: 'image/png' };
      images = await serveHttp((req, res) => {
        const file = files[req.url ?? ''];
        if (!file) {
          res.writeHead(404, { 'content-type': 'text/plain' });
          return res.end('not found');
        }
        res.writeHead(200, { 'content-type': file.type, 'content-length': file.body.length });
        res.end(file.body);
      });
      dataDir = mkdtempSync(path.join(tmpdir(), 'pimbridge-media-'));
      h = await harness(target, { DATA_DIR: dataDir, MEDIA_ALLOW_PRIVATE_NETWORKS: 'true', PUBLIC_URL });
      t = await h.tenant();
      call = h.as(t);
    });
    after(async () => {
      await h.close();
      await images.close();
      rmSync(dataDir, { recursive: true, force: true });
    });

    const attach = (productId: number, file: string, fields: Record<string, unknown> = {}, c: Call = call) =>
      c('POST', `/api/products/${productId}/media`, { file_url: `${images.url}${file}`, ...fields });
    const keyOf = (url: string) => {
      const match = KEY_URL.exec(url);
      assert.ok(match, `a media URL under PUBLIC_URL: ${url}`);
      return `${match[1]}.${match[2]}`;
    };
    const fileOnDisk = (key: string) => path.join(dataDir, 'media', key.slice(0, 2), key);
    const storedFiles = () =>
      existsSync(path.join(dataDir, 'media'))
        ? readdirSync(path.join(dataDir, 'media'), { recursive: true })
            .map(String)
            .filter((f) => f.includes('.'))
        : [];
    const mediaList = async (productId: number, c: Call = call) => okData(await c('GET', `/api/products/${productId}/media`));
    const positions = async (productId: number) => (await mediaList(productId)).media.map((m: { id: number; position: number }) => [m.id, m.position]);

    describe('attach', () => {
      it('downloads the image and answers 201 with the media record', async () => {
        const p = await createProduct(call);
        const media = okData(await attach(p.id, '/red.png', { alt_text: 'Red tee, front', position: 0 }), 201);
        assert.deepEqual(Object.keys(media).sort(), MEDIA_KEYS);
        assert.equal(media.product_id, p.id);
        assert.equal(media.alt_text, 'Red tee, front');
        assert.equal(media.position, 0);
        assert.equal(media.mime_type, 'image/png');
        assert.equal(media.width, 40);
        assert.equal(media.height, 30);
        assert.equal(media.size_bytes, files['/red.png'].body.length);
        assert.match(media.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
        assert.equal(keyOf(media.url), `${sha256(files['/red.png'].body)}.png`);
        assert.ok(existsSync(fileOnDisk(keyOf(media.url))));
      });

      it('detects the format from the bytes: JPEG, WebP and GIF', async () => {
        const p = await createProduct(call);
        const jpg = okData(await attach(p.id, '/blue.jpg'), 201);
        const webp = okData(await attach(p.id, '/green.webp'), 201);
        const gif = okData(await attach(p.id, '/grey.gif'), 201);
        assert.deepEqual([jpg.mime_type, jpg.width, jpg.height, jpg.url.slice(-4)], ['image/jpeg', 64, 48, '.jpg']);
        assert.deepEqual([webp.mime_type, webp.width, webp.height, webp.url.slice(-5)], ['image/webp', 20, 50, '.webp']);
        assert.deepEqual([gif.mime_type, gif.width, gif.height, gif.url.slice(-4)], ['image/gif', 16, 16, '.gif']);
        assert.equal(jpg.alt_text, null);
      });

      it("lists the URLs in the product's images, by position, and bumps its updated_at", async () => {
        const p = await createProduct(call);
        assert.deepEqual(p.images, []);
        const since = await instantBetween();
        const a = okData(await attach(p.id, '/yellow.png'), 201);
        const b = okData(await attach(p.id, '/cyan.png', { position: 0 }), 201);
        const product = okData(await call('GET', `/api/products/${p.id}`));
        assert.deepEqual(product.images, [b.url, a.url]);
        assert.ok(product.updated_at >= p.updated_at);
        assert.ok((await listIds(call, `updated_since=${encodeURIComponent(since)}&limit=100`)).includes(p.id), 'the product changed after `since`');
        // The product list carries the same images.
        const listed = okData(await call('GET', `/api/products?limit=100&search=${encodeURIComponent(p.sku)}`)).products;
        assert.deepEqual(listed.find((x: { id: number }) => x.id === p.id).images, [b.url, a.url]);
      });

      it('serves the file publicly at GET /media/{key}, without an API key, with its type and long caching', async () => {
        const p = await createProduct(call);
        const media = okData(await attach(p.id, '/blue.jpg'), 201);
        const key = keyOf(media.url);
        const res = await h.app.inject({ method: 'GET', url: `/media/${key}` });
        assert.equal(res.statusCode, 200);
        assert.deepEqual(res.rawPayload, files['/blue.jpg'].body);
        assert.equal(res.headers['content-type'], 'image/jpeg');
        assert.equal(res.headers['content-length'], String(files['/blue.jpg'].body.length));
        assert.match(String(res.headers['cache-control']), /public, max-age=31536000, immutable/);
        assert.equal(res.headers['x-content-type-options'], 'nosniff');
        assert.equal(res.headers['x-ratelimit-limit'], undefined, 'outside the PIM rate limits');
        const etag = String(res.headers.etag);
        assert.equal(etag, `"${key.slice(0, 64)}"`);
        const cached = await h.app.inject({ method: 'GET', url: `/media/${key}`, headers: { 'if-none-match': etag } });
        assert.equal(cached.statusCode, 304);
        assert.equal(cached.rawPayload.length, 0);
        const head = await h.app.inject({ method: 'HEAD', url: `/media/${key}` });
        assert.equal(head.statusCode, 200);
        assert.equal(head.headers['content-type'], 'image/jpeg');
      });

      it('answers 404 for anything at /media/ that is not a stored file, and never leaves the media folder', async () => {
        const unknown = `${'0'.repeat(64)}.png`;
        const bad = [
          unknown,
          '..%2Fsecrets.json',
          '..%2F..%2Fetc%2Fpasswd',
          `${'A'.repeat(64)}.png`,
          `${'0'.repeat(64)}.svg`,
          `${'0'.repeat(63)}.png`,
          `${'0'.repeat(64)}.png%00.txt`,
          'secrets.json',
        ];
        for (const key of bad) {
          const res = await h.app.inject({ method: 'GET', url: `/media/${key}` });
          assertError(res, res.statusCode === 400 ? 400 : 404);
          assert.notEqual(res.statusCode, 200, key);
        }
        assertError(await h.app.inject({ method: 'GET', url: `/media/${unknown}` }), 404, /Media file not found/);
        assert.equal((await h.app.inject({ method: 'GET', url: '/media/../secrets.json' })).statusCode, 404);
        // Dot segments resolve before routing: `/media/%2e%2e` is the site's root, the console's page, never a file.
        const root = await h.app.inject({ method: 'GET', url: '/media/%2e%2e' });
        assert.ok(root.statusCode === 404 || /text\/html/.test(String(root.headers['content-type'])), `${root.statusCode} ${root.headers['content-type']}`);
      });
    });

    describe('duplicates', () => {
      it('the same image attached twice is stored once: 200 with the existing record', async () => {
        const p = await createProduct(call);
        const first = okData(await attach(p.id, '/orange.png', { alt_text: 'first' }), 201);
        const since = await instantBetween();
        const again = okData(await attach(p.id, '/orange.png', { alt_text: 'second', position: 0 }), 200);
        assert.deepEqual(again, first, 'unchanged: same id, alt text and position');
        // The same bytes under another URL are the same image.
        files['/orange-elsewhere.png'] = files['/orange.png'];
        assert.deepEqual(okData(await attach(p.id, '/orange-elsewhere.png'), 200), first);
        assert.equal((await mediaList(p.id)).total, 1);
        assert.deepEqual(okData(await call('GET', `/api/products/${p.id}`)).images, [first.url]);
        assert.ok(!(await listIds(call, `updated_since=${encodeURIComponent(since)}&limit=100`)).includes(p.id), 'a duplicate changes nothing');
      });

      it('two products share one stored file; it goes when the last media using it goes', async () => {
        const p1 = await createProduct(call);
        const p2 = await createProduct(call);
        const other = await h.tenant();
        const p3 = await createProduct(h.as(other));
        const m1 = okData(await attach(p1.id, '/pink.png'), 201);
        const m2 = okData(await attach(p2.id, '/pink.png'), 201);
        const m3 = okData(await attach(p3.id, '/pink.png', {}, h.as(other)), 201);
        assert.notEqual(m1.id, m2.id);
        const key = keyOf(m1.url);
        assert.equal(keyOf(m2.url), key);
        assert.equal(keyOf(m3.url), key);
        assert.equal(storedFiles().filter((f) => f.endsWith(key)).length, 1, 'one file on disk');

        okData(await call('DELETE', `/api/products/${p1.id}/media/${m1.id}`));
        assert.ok(existsSync(fileOnDisk(key)), 'still used by product 2 and by the other organization');
        okData(await call('DELETE', `/api/products/${p2.id}/media/${m2.id}`));
        assert.ok(existsSync(fileOnDisk(key)), 'still used by the other organization');
        okData(await h.as(other)('DELETE', `/api/products/${p3.id}/media/${m3.id}`));
        assert.ok(!existsSync(fileOnDisk(key)), 'removed with its last reference');
        assertError(await h.app.inject({ method: 'GET', url: `/media/${key}` }), 404);
      });

      it('a re-attached image whose file had been removed is stored again', async () => {
        const p = await createProduct(call);
        const m = okData(await attach(p.id, '/pink.png'), 201);
        okData(await call('DELETE', `/api/products/${p.id}/media/${m.id}`));
        assert.ok(!existsSync(fileOnDisk(keyOf(m.url))));
        const back = okData(await attach(p.id, '/pink.png'), 201);
        assert.ok(existsSync(fileOnDisk(keyOf(back.url))));
        assert.equal((await h.app.inject({ method: 'GET', url: `/media/${keyOf(back.url)}` })).statusCode, 200);
      });
    });

    describe('positions', () => {
      it('appends by default, inserts at a given position, and keeps 0..n-1', async () => {
        const p = await createProduct(call);
        const a = okData(await attach(p.id, '/red.png'), 201);
        const b = okData(await attach(p.id, '/blue.jpg'), 201);
        assert.deepEqual([a.position, b.position], [0, 1]);
        const c = okData(await attach(p.id, '/green.webp', { position: 0 }), 201);
        assert.equal(c.position, 0);
        const d = okData(await attach(p.id, '/grey.gif', { position: 2 }), 201);
        assert.equal(d.position, 2);
        const e = okData(await attach(p.id, '/yellow.png', { position: 99 }), 201);
        assert.equal(e.position, 4, 'a position past the end appends');
        assert.deepEqual(await positions(p.id), [
          [c.id, 0],
          [a.id, 1],
          [d.id, 2],
          [b.id, 3],
          [e.id, 4],
        ]);
        okData(await call('DELETE', `/api/products/${p.id}/media/${a.id}`));
        assert.deepEqual(await positions(p.id), [
          [c.id, 0],
          [d.id, 1],
          [b.id, 2],
          [e.id, 3],
        ]);
        const images = okData(await call('GET', `/api/products/${p.id}`)).images;
        assert.deepEqual(images, [c.url, d.url, b.url, e.url]);
      });

      it('PATCH moves a media (the others close up), changes its alt text, and bumps the product', async () => {
        const p = await createProduct(call);
        const ids: number[] = [];
        for (const file of ['/move-1.png', '/move-2.png', '/move-3.png', '/move-4.png']) ids.push(okData(await attach(p.id, file), 201).id);
        const before = okData(await call('GET', `/api/products/${p.id}`)).updated_at;
        const moved = okData(await call('PATCH', `/api/products/${p.id}/media/${ids[3]}`, { position: 0 }));
        assert.equal(moved.position, 0);
        assert.deepEqual(await positions(p.id), [
          [ids[3], 0],
          [ids[0], 1],
          [ids[1], 2],
          [ids[2], 3],
        ]);
        okData(await call('PATCH', `/api/products/${p.id}/media/${ids[3]}`, { position: 99 }));
        assert.deepEqual(await positions(p.id), [
          [ids[0], 0],
          [ids[1], 1],
          [ids[2], 2],
          [ids[3], 3],
        ]);
        const alt = okData(await call('PATCH', `/api/products/${p.id}/media/${ids[1]}`, { alt_text: 'Side view' }));
        assert.equal(alt.alt_text, 'Side view');
        assert.equal(alt.position, 1, 'alt text alone moves nothing');
        const product = okData(await call('GET', `/api/products/${p.id}`));
        assert.notEqual(product.updated_at, before);
        // The product gives each image's alt text beside its URL (`image_alts`, in the order of `images`; for the push).
        assert.equal(product.image_alts.length, product.images.length);
        assert.equal(product.image_alts[1], 'Side view');
        assertError(await call('PATCH', `/api/products/${p.id}/media/${ids[1]}`, {}), 400, /at least one field/);
        assertError(await call('PATCH', `/api/products/${p.id}/media/${ids[1]}`, { position: -1 }), 400, /position/);
        assertError(await call('PATCH', `/api/products/${p.id}/media/999999`, { position: 0 }), 404, /Media 999999/);
        const other = h.as(await h.tenant());
        assertError(await other('PATCH', `/api/products/${p.id}/media/${ids[1]}`, { position: 0 }), 404, /Product/);
        assert.deepEqual(
          (await positions(p.id)).map(([id]: number[]) => id),
          ids,
          'refused changes moved nothing',
        );
      });
    });

    describe('list, get, delete', () => {
      it('lists a product’s media in the shape {product_id, media, total}', async () => {
        const p = await createProduct(call);
        assert.deepEqual(await mediaList(p.id), { product_id: p.id, media: [], total: 0 });
        const a = okData(await attach(p.id, '/red.png', { alt_text: 'A' }), 201);
        const b = okData(await attach(p.id, '/blue.jpg', { alt_text: 'B' }), 201);
        const list = await mediaList(p.id);
        assert.deepEqual(Object.keys(list), ['product_id', 'media', 'total']);
        assert.deepEqual(list, { product_id: p.id, media: [a, b], total: 2 });
      });

      it('gets one media', async () => {
        const p = await createProduct(call);
        const m = okData(await attach(p.id, '/green.webp', { alt_text: 'Green' }), 201);
        assert.deepEqual(okData(await call('GET', `/api/products/${p.id}/media/${m.id}`)), m);
      });

      it('deletes a media: {deleted: true}, gone from the product, updated_at bumped, file removed', async () => {
        const p = await createProduct(call);
        const m = okData(await attach(p.id, '/violet.png'), 201);
        const since = await instantBetween();
        assert.deepEqual(okData(await call('DELETE', `/api/products/${p.id}/media/${m.id}`)), { deleted: true });
        assert.deepEqual(okData(await call('GET', `/api/products/${p.id}`)).images, []);
        assert.ok((await listIds(call, `updated_since=${encodeURIComponent(since)}&limit=100`)).includes(p.id));
        assert.ok(!existsSync(fileOnDisk(keyOf(m.url))));
        assertError(await call('GET', `/api/products/${p.id}/media/${m.id}`), 404);
        assertError(await call('DELETE', `/api/products/${p.id}/media/${m.id}`), 404, new RegExp(`Media ${m.id} of product ${p.id} not found`));
      });

      it('answers 404 for an unknown product or media, and for a media of another product; nothing is downloaded', async () => {
        const p = await createProduct(call);
        const other = await createProduct(call);
        const m = okData(await attach(other.id, '/red.png'), 201);
        const hits = images.hits.length;
        assertError(await attach(999999, '/red.png'), 404, /Product 999999 not found/);
        assert.equal(images.hits.length, hits, 'no download for a product that does not exist');
        assertError(await call('GET', '/api/products/999999/media'), 404, /Product 999999 not found/);
        assertError(await call('GET', `/api/products/${p.id}/media/999999`), 404, /Media 999999 of product/);
        assertError(await call('GET', `/api/products/${p.id}/media/${m.id}`), 404, new RegExp(`Media ${m.id} of product ${p.id} not found`));
        assertError(await call('DELETE', `/api/products/${p.id}/media/${m.id}`), 404);
        assertError(await call('DELETE', `/api/products/999999/media/${m.id}`), 404, /Product 999999 not found/);
        assert.equal((await mediaList(other.id)).total, 1, 'the media of the other product is untouched');
      });

      it('answers 400 for ids that are not positive integers', async () => {
        assertError(await call('GET', '/api/products/abc/media'), 400, /path parameter 'id'/);
        assertError(await call('GET', '/api/products/1/media/0'), 400, /path parameter 'mediaId'/);
        assertError(await call('DELETE', '/api/products/1/media/x'), 400, /path parameter 'mediaId'/);
      });

      it('needs an API key', async () => {
        const p = await createProduct(call);
        assertError(await h.as(null)('GET', `/api/products/${p.id}/media`), 401);
        assertError(await h.as(null)('POST', `/api/products/${p.id}/media`, { file_url: `${images.url}/red.png` }), 401);
      });
    });

    describe('tenant isolation', () => {
      it("another organization's product and media are 404 on every route, and stay untouched", async () => {
        const p = await createProduct(call);
        const m = okData(await attach(p.id, '/red.png'), 201);
        const intruder = h.as(await h.tenant());
        assertError(await intruder('GET', `/api/products/${p.id}/media`), 404, new RegExp(`Product ${p.id} not found`));
        assertError(await intruder('GET', `/api/products/${p.id}/media/${m.id}`), 404);
        assertError(await intruder('DELETE', `/api/products/${p.id}/media/${m.id}`), 404);
        assertError(await attach(p.id, '/blue.jpg', {}, intruder), 404);
        const own = await createProduct(intruder);
        assertError(await intruder('GET', `/api/products/${own.id}/media/${m.id}`), 404);
        assertError(await intruder('DELETE', `/api/products/${own.id}/media/${m.id}`), 404);
        assert.deepEqual(await mediaList(p.id), { product_id: p.id, media: [m], total: 1 });
      });
    });

    describe('bad input and refused files: 400 naming the rule', () => {
      it('a file that is not an image, whatever its Content-Type says', async () => {
        const p = await createProduct(call);
        assertError(await attach(p.id, '/fake.png'), 400, /^file_url: the file is not a JPEG, PNG, WebP or GIF image$/);
        assert.equal((await mediaList(p.id)).total, 0);
      });

      it('an answer other than 2xx', async () => {
        const p = await createProduct(call);
        assertError(await attach(p.id, '/missing.png'), 400, /^file_url: the server answered 404$/);
      });

      it('other schemes and invalid URLs', async () => {
        const p = await createProduct(call);
        for (const url of ['ftp://127.0.0.1/a.png', 'file:///etc/passwd', 'data:image/png;base64,iVBORw0KGgo=']) {
          assertError(
            await call('POST', `/api/products/${p.id}/media`, { file_url: url }),
            400,
            /^file_url: only http and https URLs can be fetched, got [a-z]+:$/,
          );
        }
        assertError(await call('POST', `/api/products/${p.id}/media`, { file_url: 'not a url' }), 400, /^file_url: is not a valid URL$/);
      });

      it('a body that breaks the schema', async () => {
        const p = await createProduct(call);
        const post = (body: unknown) => call('POST', `/api/products/${p.id}/media`, body);
        assertError(await post({}), 400, /field 'file_url' is required/);
        assertError(await post({ file_url: 42 }), 400, /field 'file_url'/);
        assertError(await post({ file_url: '' }), 400, /field 'file_url'/);
        assertError(await post({ file_url: `${images.url}/red.png`, position: -1 }), 400, /field 'position'/);
        assertError(await post({ file_url: `${images.url}/red.png`, position: 1.5 }), 400, /field 'position'/);
        assertError(await post({ file_url: `${images.url}/red.png`, alt_text: 7 }), 400, /field 'alt_text'/);
        assertError(await post({ file_url: `${images.url}/red.png`, extra: 1 }), 400, /field 'extra' is not allowed/);
        assert.equal((await mediaList(p.id)).total, 0);
      });
    });

    describe('upload (multipart/form-data)', () => {
      const upload = async (productId: number, parts: Part[], c: Call = call) => {
        const { payload, contentType } = await form(parts);
        return c('POST', `/api/products/${productId}/media/upload`, payload, { 'content-type': contentType });
      };

      it('stores the file as a downloaded one is: 201 with the media, at the asked position, the product bumped', async () => {
        const p = await createProduct(call);
        const first = okData(await attach(p.id, '/move-1.png'), 201);
        const uploaded = okData(
          await upload(p.id, [
            ['file', files['/violet.png'].body, 'violet.png', 'image/png'],
            ['alt_text', '  Violet swatch  '],
            ['position', '0'],
          ]),
          201,
        );
        assert.deepEqual(Object.keys(uploaded).sort(), MEDIA_KEYS);
        assert.deepEqual([uploaded.mime_type, uploaded.width, uploaded.height, uploaded.position], ['image/png', 30, 18, 0]);
        assert.equal(uploaded.alt_text, 'Violet swatch');
        assert.equal(uploaded.size_bytes, files['/violet.png'].body.length);
        assert.equal(keyOf(uploaded.url), `${sha256(files['/violet.png'].body)}.png`);
        assert.deepEqual(await positions(p.id), [
          [uploaded.id, 0],
          [first.id, 1],
        ]);
        const product = okData(await call('GET', `/api/products/${p.id}`));
        assert.deepEqual(product.images, [uploaded.url, first.url]);
        assert.ok(product.updated_at >= p.updated_at);
      });

      it('answers 200 with the existing media for the same bytes, whatever the file is called or typed as', async () => {
        const p = await createProduct(call);
        const a = okData(await upload(p.id, [['file', files['/orange.png'].body, 'a.png', 'image/png']]), 201);
        const b = okData(await upload(p.id, [['file', files['/orange.png'].body, 'b.jpg', 'image/jpeg']]), 200);
        assert.equal(b.id, a.id);
        assert.equal((await mediaList(p.id)).total, 1);
      });

      it('refuses a bad form with a 400 naming the field, and stores nothing', async () => {
        const p = await createProduct(call);
        const png = await makeImage('png', 13, 71, [3, 140, 90]); // a file no other case stores
        assertError(await upload(p.id, [['alt_text', 'no file']]), 400, /^field 'file' is required: a JPEG, PNG, WebP or GIF file of at most 20 MB$/);
        assertError(await upload(p.id, [['file', files['/fake.png'].body, 'fake.png', 'image/png']]), 400, /^file: /);
        assertError(await upload(p.id, [['image', png, 'pink.png']]), 400, /field 'image' is not allowed: send the image in the file field 'file'/);
        assertError(
          await upload(p.id, [
            ['file', png, 'p.png'],
            ['position', '-1'],
          ]),
          400,
          /^field 'position' must be an integer from 0 to 100000$/,
        );
        assertError(
          await upload(p.id, [
            ['file', png, 'p.png'],
            ['position', 'first'],
          ]),
          400,
          /^field 'position'/,
        );
        assertError(
          await upload(p.id, [
            ['file', png, 'p.png'],
            ['alt_text', 'x'.repeat(1001)],
          ]),
          400,
          /^field 'alt_text' must be at most 1000 characters$/,
        );
        assertError(
          await upload(p.id, [
            ['file', png, 'p.png'],
            ['colour', 'pink'],
          ]),
          400,
          /^field 'colour' is not allowed$/,
        );
        assertError(await call('POST', `/api/products/${p.id}/media/upload`, { file_url: `${images.url}/pink.png` }), 400, /must be multipart\/form-data/);
        assert.equal((await mediaList(p.id)).total, 0);
        assert.equal(
          storedFiles().some((f) => f.endsWith(`${sha256(png)}.png`)),
          false,
        );
      });

      it("is 404 for another organization's product and for an unknown one", async () => {
        const p = await createProduct(call);
        const other = h.as(await h.tenant());
        assertError(await upload(p.id, [['file', files['/pink.png'].body, 'p.png']], other), 404);
        assertError(await upload(999_999_999, [['file', files['/pink.png'].body, 'p.png']]), 404);
        assert.equal((await mediaList(p.id)).total, 0);
      });
    });

    describe('private networks (MEDIA_ALLOW_PRIVATE_NETWORKS unset)', () => {
      let strict: Harness;
      let strictDir: string;
      before(async () => {
        strictDir = mkdtempSync(path.join(tmpdir(), 'pimbridge-media-strict-'));
        strict = await harness(target, { DATA_DIR: strictDir });
      });
      after(async () => {
        await strict.close();
        rmSync(strictDir, { recursive: true, force: true });
      });

      it('refuses an image server on loopback, by address and by name, and never contacts it', async () => {
        const c = strict.as(await strict.tenant());
        const p = await createProduct(c);
        const connections = images.connections;
        assertError(
          await c('POST', `/api/products/${p.id}/media`, { file_url: `${images.url}/red.png` }),
          400,
          /^file_url: the host is not a public address \(loopback\)$/,
        );
        assertError(
          await c('POST', `/api/products/${p.id}/media`, { file_url: `http://localhost:${images.port}/red.png` }),
          400,
          // The rule and the range, not what localhost resolved to (no internal DNS answers in errors).
          /^file_url: the host name resolves to a non-public address \(loopback\)$/,
        );
        assertError(await c('POST', `/api/products/${p.id}/media`, { file_url: 'http://169.254.169.254/latest/meta-data/' }), 400, /link-local/);
        assert.equal(images.connections, connections);
        assert.equal(okData(await c('GET', `/api/products/${p.id}/media`)).total, 0);
        assert.ok(!existsSync(path.join(strictDir, 'media')), 'nothing stored');
      });
    });
  });
}

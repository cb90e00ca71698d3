import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { productMedia } from '../src/pim/pim.tables.js';
import { ImageSearchRepository, searchStatement } from '../src/pim/image-search/image-search.repository.js';
import { MAX_IMAGE_BYTES } from '../src/pim/image-search/image-search.schemas.js';
import { ballAround, chunkLookups, chunksOf } from '../src/pim/image-search/multi-index.js';
import { decodeImage, hammingDistance } from '../src/pim/images/image-decoder.js';
import { databaseTargets, harness, type Harness, type Tenant } from './helpers/harness.js';
import { form, type Part } from './helpers/form.js';
import { assertError, createProduct, okData, type Call } from './helpers/pim.js';
import { serveHttp, type TestServer } from './helpers/servers.js';
import { sqlRows } from './helpers/sql.js';
import { asGif, asPng, asWebp, croppedJpeg, resizedJpeg, syntheticPhoto } from './helpers/synthetic-photo.js';

const URL_PATH = '/api/products/image-search';

/** POST an image search with these form parts (and an optional query string). */
async function search(call: Call, parts: Part[], query = '') {
  const { payload, contentType } = await form(parts);
  return call('POST', `${URL_PATH}${query}`, payload, { 'content-type': contentType });
}

/** A seeded generator of pHash-like values: the DC bit set and 31 of the other 63 bits, as the median split gives. */
function hashes(seed: number) {
  let state = seed;
  const random = () => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const flip = (hash: bigint, bits: number) => {
    const chosen = new Set<number>();
    while (chosen.size < bits) chosen.add(Math.floor(random() * 64));
    for (const b of chosen) hash ^= 1n << BigInt(b);
    return BigInt.asIntN(64, hash);
  };
  const next = () => {
    const positions = Array.from({ length: 63 }, (_, i) => i);
    for (let i = positions.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [positions[i], positions[j]] = [positions[j], positions[i]];
    }
    let hash = 1n << 63n;
    for (const bit of positions.slice(0, 31)) hash |= 1n << BigInt(bit);
    return BigInt.asIntN(64, hash);
  };
  return { next, flip, random };
}

const imagePart = (bytes: Buffer, filename = 'photo.jpg', type = 'image/jpeg'): Part => ['image', bytes, filename, type];

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Hit = any;

const pictures: Record<string, Buffer> = {};
before(async () => {
  pictures.photo = await syntheticPhoto(1);
  pictures.other = await syntheticPhoto(2);
  pictures.third = await syntheticPhoto(3);
  pictures.halfQ70 = await resizedJpeg(pictures.photo, 0.5, 70);
  pictures.crop5 = await croppedJpeg(pictures.photo, 0.05);
  pictures.webp = await asWebp(pictures.photo);
  pictures.png = await asPng(pictures.photo);
  pictures.gif = await asGif(pictures.photo);
});

describe('image search: multi-index hashing', () => {
  it('cuts a hash into four 16-bit chunks, signed or not', () => {
    assert.deepEqual(chunksOf(0x0123456789abcdefn), [0x0123, 0x4567, 0x89ab, 0xcdef]);
    assert.deepEqual(chunksOf(BigInt.asIntN(64, 0xfedcba9876543210n)), [0xfedc, 0xba98, 0x7654, 0x3210]);
  });

  it('enumerates every 16-bit value within a radius, once', () => {
    for (const [radius, size] of [
      [0, 1],
      [1, 17],
      [2, 137],
      [3, 697],
    ]) {
      const ball = ballAround(0xbeef, radius);
      assert.equal(ball.length, size);
      assert.equal(new Set(ball).size, size);
      for (const v of ball) assert.ok(hammingDistance(BigInt(v), 0xbeefn) <= radius);
    }
  });

  it('never misses a hash within the distance (pigeonhole), and gives up the lookups past distance 15', () => {
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let trial = 0; trial < 2000; trial++) {
      const query = BigInt.asIntN(64, BigInt(Math.floor(random() * 2 ** 32)) * 2n ** 32n + BigInt(Math.floor(random() * 2 ** 32)));
      const d = trial % 16;
      let stored = query;
      const bits = new Set<number>();
      while (bits.size < d) bits.add(Math.floor(random() * 64));
      for (const b of bits) stored ^= 1n << BigInt(b);
      stored = BigInt.asIntN(64, stored);
      const lookups = chunkLookups(query, d)!;
      const storedChunks = chunksOf(stored);
      assert.ok(
        lookups.some((values, i) => values.includes(storedChunks[i])),
        `distance ${d} found`,
      );
    }
    assert.equal(chunkLookups(0n, 16), null);
    assert.equal(chunkLookups(0n, 32), null);
  });
});

describe('image search: the perceptual hash', () => {
  it('keeps resized, re-encoded and slightly cropped copies close, and different pictures far apart', async () => {
    const hash = async (b: Buffer) => (await decodeImage(b)).phash;
    const original = await hash(pictures.photo);
    for (const name of ['halfQ70', 'crop5', 'webp', 'png', 'gif']) {
      const d = hammingDistance(original, await hash(pictures[name]));
      assert.ok(d <= 6, `${name}: distance ${d}`);
    }
    for (const name of ['other', 'third']) {
      const d = hammingDistance(original, await hash(pictures[name]));
      assert.ok(d >= 16, `${name}: distance ${d}`);
    }
  });
});

for (const target of databaseTargets()) {
  describe(`image search (${target.name})`, () => {
    let h: Harness;
    let t: Tenant;
    let call: Call;
    /** Products of tenant t: `photo` holds the original, `twin` the same file, `cropped` a 5 % crop, `far` a different picture, `pair` two images. */
    const p: Record<string, { id: number }> = {};
    const media: Record<string, number> = {};
    /** Every image stored for tenant t: the oracle that the searches are checked against. */
    const stored: { productId: number; mediaId: number; phash: bigint }[] = [];

    /** Stores an image of a product as the media route would (same columns, hash from decodeImage). */
    async function attach(organizationId: number, productId: number, bytes: Buffer): Promise<number> {
      const decoded = await decodeImage(bytes);
      const sha256 = createHash('sha256').update(bytes).digest('hex');
      const [row] = await h.database.db
        .insert(productMedia)
        .values({
          organizationId,
          productId,
          storageKey: `${sha256.slice(0, 2)}/${sha256}`,
          mimeType: decoded.mimeType,
          width: decoded.width,
          height: decoded.height,
          sizeBytes: bytes.length,
          sha256,
          phash: decoded.phash,
        })
        .returning({ id: productMedia.id });
      if (organizationId === t.organizationId) stored.push({ productId, mediaId: row.id, phash: decoded.phash });
      return row.id;
    }

    /** What a search must answer, worked out from the stored hashes: each product's closest image, closest first. */
    async function expected(upload: Buffer, maxDistance: number): Promise<[productId: number, mediaId: number, distance: number][]> {
      const hash = (await decodeImage(upload)).phash;
      const best = new Map<number, [number, number, number]>();
      for (const { productId, mediaId, phash } of stored) {
        const d = hammingDistance(hash, phash);
        const current = best.get(productId);
        if (d <= maxDistance && (!current || d < current[2] || (d === current[2] && mediaId < current[1]))) best.set(productId, [productId, mediaId, d]);
      }
      return [...best.values()].sort((a, b) => a[2] - b[2] || a[0] - b[0]);
    }
    const summary = (hits: Hit[]) => hits.map((x) => [x.id, x.match.media_id, x.match.distance]);

    before(async () => {
      h = await harness(target);
      t = await h.tenant();
      call = h.as(t);
      for (const name of ['photo', 'twin', 'cropped', 'far', 'pair']) p[name] = await createProduct(call, { name: `Image ${name}` });
      media.photo = await attach(t.organizationId, p.photo.id, pictures.photo);
      media.twin = await attach(t.organizationId, p.twin.id, pictures.photo);
      media.cropped = await attach(t.organizationId, p.cropped.id, pictures.crop5);
      media.far = await attach(t.organizationId, p.far.id, pictures.other);
      // `pair` holds a different picture and, second, the WebP copy: it must come once, with the WebP image.
      media.pairOther = await attach(t.organizationId, p.pair.id, pictures.third);
      media.pairWebp = await attach(t.organizationId, p.pair.id, pictures.webp);
    });
    after(() => h.close());

    it('finds the products whose images are close to the upload, closest first, each once, as full Products', async () => {
      const data = okData(await search(call, [imagePart(pictures.photo)]));
      const hits: Hit[] = data.products;
      assert.deepEqual(summary(hits), await expected(pictures.photo, 10));
      assert.deepEqual(Object.keys(data), ['products', 'total']);
      const ids = hits.map((x) => x.id);
      assert.equal(new Set(ids).size, ids.length, 'each product once');
      assert.deepEqual(new Set(ids), new Set([p.photo.id, p.twin.id, p.cropped.id, p.pair.id]));
      assert.equal(data.total, 4);
      // The identical files first (distance 0, by product id), then by distance.
      assert.deepEqual(
        ids.slice(0, 2),
        [p.photo.id, p.twin.id].sort((a, b) => a - b),
      );
      for (let i = 1; i < hits.length; i++) {
        const [a, b] = [hits[i - 1].match, hits[i].match];
        assert.ok(a.distance < b.distance || (a.distance === b.distance && hits[i - 1].id < hits[i].id), 'distance, then product id');
      }
      const byId = new Map(hits.map((x) => [x.id, x]));
      assert.deepEqual(byId.get(p.photo.id).match, { media_id: media.photo, distance: 0, similarity: 1 });
      assert.equal(byId.get(p.pair.id).match.media_id, media.pairWebp, "the product's closest image");
      for (const hit of hits) {
        assert.equal(hit.match.similarity, Math.round((1 - hit.match.distance / 64) * 10_000) / 10_000);
        assert.ok(hit.match.distance <= 10);
        // Exactly the Product of GET /api/products/{id}, plus `match`.
        const { match, ...product } = hit;
        assert.deepEqual(Object.keys(match), ['media_id', 'distance', 'similarity']);
        assert.deepEqual(product, okData(await call('GET', `/api/products/${hit.id}`)));
      }
    });

    it('recall: finds the photo resized to half and saved as JPEG at quality 70', async () => {
      const hits: Hit[] = okData(await search(call, [imagePart(pictures.halfQ70, 'small.jpg')])).products;
      const hit = hits.find((x) => x.id === p.photo.id);
      assert.ok(hit, 'found');
      assert.ok(hit.match.distance <= 10);
      assert.ok(!hits.some((x) => x.id === p.far.id));
    });

    it('recall: finds the photo from a 5 % crop, a WebP, a PNG and a GIF copy (the type is read from the bytes)', async () => {
      for (const [bytes, filename, type] of [
        [pictures.crop5, 'crop.jpg', 'image/jpeg'],
        [pictures.webp, 'photo.webp', 'image/webp'],
        [pictures.png, 'photo.png', 'image/png'],
        [pictures.gif, 'photo.gif', 'image/gif'],
        [pictures.webp, 'misnamed.jpg', 'application/octet-stream'],
      ] as const) {
        const ids = okData(await search(call, [imagePart(bytes, filename, type)])).products.map((x: Hit) => x.id);
        assert.ok(ids.includes(p.photo.id), `${filename} finds the photo`);
      }
    });

    it('does not find a clearly different picture at the default distance', async () => {
      const data = okData(await search(call, [imagePart(await syntheticPhoto(42))]));
      assert.deepEqual(data, { products: [], total: 0 });
      const ids = okData(await search(call, [imagePart(pictures.other)])).products.map((x: Hit) => x.id);
      assert.deepEqual(ids, [p.far.id]);
    });

    it('max_distance narrows or widens the search, as a query parameter or a form field', async () => {
      const exact = okData(await search(call, [imagePart(pictures.photo)], '?max_distance=0'));
      assert.ok(exact.products.every((x: Hit) => x.match.distance === 0));
      assert.ok(!exact.products.some((x: Hit) => x.id === p.cropped.id), 'the crop is not identical');
      assert.deepEqual(summary(exact.products), await expected(pictures.photo, 0));
      assert.equal(exact.total, exact.products.length);
      const asField = okData(await search(call, [imagePart(pictures.photo), ['max_distance', '0']]));
      assert.deepEqual(asField, exact);
      // Every distance, on both paths: the chunk indexes up to 15, one pass over all images past it.
      for (const upload of [pictures.photo, pictures.crop5, pictures.other]) {
        for (const d of [0, 2, 3, 4, 7, 8, 10, 12, 15, 16, 20, 24, 32]) {
          const data = okData(await search(call, [imagePart(upload)], `?max_distance=${d}&limit=100`));
          const want = await expected(upload, d);
          assert.deepEqual(summary(data.products), want, `max_distance ${d}`);
          assert.equal(data.total, want.length);
        }
      }
    });

    it('limit caps the list, not the total', async () => {
      const data = okData(await search(call, [imagePart(pictures.photo)], '?limit=1'));
      assert.equal(data.products.length, 1);
      assert.equal(data.total, 4);
      assert.equal(data.products[0].id, Math.min(p.photo.id, p.twin.id));
      assert.equal(okData(await search(call, [imagePart(pictures.photo), ['limit', '3']])).products.length, 3);
    });

    it('includes archived products', async () => {
      const product = await createProduct(call, { name: 'Archived with image' });
      await attach(t.organizationId, product.id, await syntheticPhoto(77));
      okData(await call('DELETE', `/api/products/${product.id}`));
      const hits: Hit[] = okData(await search(call, [imagePart(await syntheticPhoto(77))])).products;
      assert.deepEqual(
        hits.map((x) => [x.id, x.status]),
        [[product.id, 'archived']],
      );
    });

    describe('bad requests (400 in the envelope)', () => {
      it('no file, or the file in another field', async () => {
        assertError(await search(call, [['max_distance', '5']]), 400, /field 'image' is required/);
        assertError(await search(call, []), 400, /field 'image' is required/);
        assertError(await search(call, [['file', pictures.photo, 'photo.jpg', 'image/jpeg']]), 400, /field 'file' is not allowed.*'image'/);
        assertError(await search(call, [imagePart(pictures.photo), ['colour', 'red']]), 400, /field 'colour' is not allowed/);
        assertError(await search(call, [imagePart(pictures.photo), imagePart(pictures.photo)]), 400, /only one file/);
      });

      it('a file that is not a JPEG, PNG, WebP or GIF image, whatever its name and type say', async () => {
        assertError(
          await search(call, [imagePart(Buffer.from('just some text, not a picture'), 'photo.png', 'image/png')]),
          400,
          /field 'image'.*not a JPEG, PNG, WebP or GIF/,
        );
        assertError(await search(call, [imagePart(Buffer.alloc(0), 'empty.jpg')]), 400, /field 'image'/);
        const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>');
        assertError(await search(call, [imagePart(svg, 'x.png', 'image/png')]), 400, /not a JPEG, PNG, WebP or GIF/);
        assertError(await search(call, [imagePart(pictures.photo.subarray(0, pictures.photo.length >> 1), 'cut.jpg')]), 400, /field 'image'/);
      });

      it('a file over 10 MB (400, not 413); exactly 10 MB passes the size rule', async () => {
        const over = Buffer.alloc(MAX_IMAGE_BYTES + 1, 0x41);
        assertError(await search(call, [imagePart(over)]), 400, /larger than 10 MB/);
        assertError(await search(call, [imagePart(Buffer.alloc(12 * 1024 * 1024, 0x41))]), 400, /larger than 10 MB/);
        assertError(await search(call, [imagePart(Buffer.alloc(MAX_IMAGE_BYTES, 0x41))]), 400, /not a JPEG, PNG, WebP or GIF/);
      });

      it('max_distance and limit out of range or not integers', async () => {
        for (const value of ['-1', '33', 'abc', '1.5', '']) {
          assertError(
            await search(call, [imagePart(pictures.photo)], `?max_distance=${value}`),
            400,
            /query parameter 'max_distance' must be an integer from 0 to 32/,
          );
          assertError(await search(call, [imagePart(pictures.photo), ['max_distance', value]]), 400, /field 'max_distance' must be an integer from 0 to 32/);
        }
        assertError(await search(call, [imagePart(pictures.photo)], '?limit=0'), 400, /query parameter 'limit' must be an integer from 1 to 100/);
        assertError(await search(call, [imagePart(pictures.photo), ['limit', '101']]), 400, /field 'limit' must be an integer from 1 to 100/);
        assertError(
          await search(call, [imagePart(pictures.photo), ['max_distance', '5']], '?max_distance=5'),
          400,
          /both as a query parameter and as a form field/,
        );
        assertError(await search(call, [imagePart(pictures.photo), ['max_distance', '5'], ['max_distance', '6']]), 400, /more than once/);
      });

      it('a JSON body, an empty body or a malformed multipart body', async () => {
        assertError(await call('POST', URL_PATH, { image: pictures.photo.toString('base64') }), 400, /multipart\/form-data/);
        assertError(await call('POST', URL_PATH), 400, /multipart\/form-data/);
        assertError(await call('POST', URL_PATH, 'image=abc', { 'content-type': 'text/plain' }), 400, /multipart\/form-data/);
        assertError(await call('POST', URL_PATH, 'image=abc', { 'content-type': 'application/x-www-form-urlencoded' }), 400, /multipart\/form-data/);
        assertError(
          await call('POST', URL_PATH, JSON.stringify({ image: 'x'.repeat(2 * 1024 * 1024) }), { 'content-type': 'application/json' }),
          400,
          /multipart\/form-data/,
        );
        assertError(await call('POST', URL_PATH, '{not json', { 'content-type': 'application/json' }), 400, /multipart\/form-data/);
        assertError(
          await call('POST', URL_PATH, '--xyz\r\nContent-Disposition: form-data; name="image"; filename="a.jpg"\r\n\r\nabc', {
            'content-type': 'multipart/form-data; boundary=xyz',
          }),
          400,
          /not valid multipart\/form-data/,
        );
        assertError(await call('POST', URL_PATH, 'whatever', { 'content-type': 'multipart/form-data' }), 400, /not valid multipart\/form-data/);
      });
    });

    it('other routes refuse a multipart body with 415 in the envelope', async () => {
      const { payload, contentType } = await form([
        ['name', 'x'],
        ['sku', 'y'],
      ]);
      assertError(await call('POST', '/api/products', payload, { 'content-type': contentType }), 415, /multipart\/form-data/);
      assertError(await call('PATCH', `/api/products/${p.photo.id}`, payload, { 'content-type': contentType }), 415, /multipart\/form-data/);
    });

    it('is documented in the OpenAPI document as a multipart upload', async () => {
      const doc = (await h.app.inject({ method: 'GET', url: '/docs/openapi.json' })).json();
      const op = doc.paths[URL_PATH].post;
      assert.equal(op.requestBody.content['multipart/form-data'].schema.properties.image.format, 'binary');
      assert.deepEqual(
        op.parameters.map((x: { name: string }) => x.name),
        ['max_distance', 'limit'],
      );
      assert.ok(op.responses['200'].content['application/json'].schema.properties.data.properties.products.items.properties.match);
    });

    it('401 without a valid API key, before the upload is read', async () => {
      const { payload, contentType } = await form([imagePart(pictures.photo)]);
      assertError(await h.as(null)('POST', URL_PATH, payload, { 'content-type': contentType }), 401);
      assertError(await h.as(null)('POST', URL_PATH, payload, { 'content-type': contentType, 'x-api-key': 'not-a-key' }), 401);
    });

    it('the chunk indexes find exactly what comparing every stored hash finds, at every distance', async () => {
      const org = await h.tenant();
      const products = await Promise.all(Array.from({ length: 40 }, (_, i) => createProduct(h.as(org), { name: `Hash ${i}` })));
      const gen = hashes(target.name.length);
      const queries = [gen.next(), gen.next(), gen.next()];
      const rows: (typeof productMedia.$inferInsert)[] = [];
      for (let i = 0; i < 3000; i++) {
        // Most rows unrelated; one in four at a chosen distance 0–24 from one of the queries.
        const phash = i % 4 === 0 ? gen.flip(queries[i % 3], (i >> 2) % 25) : gen.next();
        const productId = products[Math.floor(gen.random() * products.length)].id;
        rows.push({
          organizationId: org.organizationId,
          productId,
          storageKey: `k${i}`,
          mimeType: 'image/jpeg',
          width: 1,
          height: 1,
          sizeBytes: 1,
          sha256: `s${i}`,
          phash,
        });
      }
      const withIds: { id: number; productId: number; phash: bigint }[] = [];
      for (let i = 0; i < rows.length; i += 500) {
        const made = await h.database.db
          .insert(productMedia)
          .values(rows.slice(i, i + 500))
          .returning({ id: productMedia.id, productId: productMedia.productId, phash: productMedia.phash });
        withIds.push(...made);
      }
      const repository = new ImageSearchRepository(h.database.db);
      for (const query of queries) {
        for (let d = 0; d <= 32; d += d < 16 ? 1 : 4) {
          const best = new Map<number, { product_id: number; media_id: number; distance: number }>();
          for (const row of withIds) {
            const distance = hammingDistance(query, BigInt(row.phash));
            const current = best.get(row.productId);
            if (distance <= d && (!current || distance < current.distance || (distance === current.distance && row.id < current.media_id))) {
              best.set(row.productId, { product_id: row.productId, media_id: row.id, distance });
            }
          }
          const want = [...best.values()].sort((a, b) => a.distance - b.distance || a.product_id - b.product_id);
          const got = await repository.search(org.organizationId, query, d, 100);
          assert.deepEqual(got, { matches: want.slice(0, 100), total: want.length }, `distance ${d}`);
        }
      }
    });

    it('at scale (50,000 images) the plan reads the four chunk indexes: the query repeats their expressions exactly', async () => {
      const org = await h.tenant();
      const product = await createProduct(h.as(org), { name: 'Many images' });
      await h.database.db.execute(sql`
        INSERT INTO product_media (organization_id, product_id, storage_key, mime_type, width, height, size_bytes, sha256, phash)
        SELECT ${org.organizationId}, ${product.id}, 'k' || g, 'image/jpeg', 1, 1, 1, 's' || g,
          ((random() * 4294967295)::bigint << 32) # (random() * 4294967295)::bigint
        FROM generate_series(1, 50000) g`);
      await h.database.db.execute(sql`ANALYZE product_media`);
      // The plan itself: what the database would do, which only EXPLAIN shows.
      const plan = await sqlRows<Record<string, string>>(h.database.db, sql`EXPLAIN ${searchStatement(org.organizationId, 0x0123456789abcdefn, 10, 20)}`);
      const text = plan.map((r) => Object.values(r)[0]).join('\n');
      for (let i = 0; i < 4; i++)
        assert.match(
          text,
          new RegExp(`Bitmap Index Scan on product_media_phash_chunk${i}_idx[^\\n]*\\n\\s+Index Cond: [^\\n]*& '65535'::bigint\\) = ANY`),
          text,
        );
      assert.doesNotMatch(text, /Seq Scan/);
    });

    it("never returns another organization's products, even for the identical image", async () => {
      const other = await h.tenant();
      const otherCall = h.as(other);
      const theirs = await createProduct(otherCall, { name: 'Their copy' });
      const theirMedia = await attach(other.organizationId, theirs.id, pictures.photo);
      const ours = okData(await search(call, [imagePart(pictures.photo)], '?max_distance=32'));
      assert.ok(!ours.products.some((x: Hit) => x.id === theirs.id));
      const mine = okData(await search(otherCall, [imagePart(pictures.photo)], '?max_distance=32'));
      assert.deepEqual(
        mine.products.map((x: Hit) => [x.id, x.match.media_id]),
        [[theirs.id, theirMedia]],
      );
      assert.equal(mine.total, 1);
    });
  });
}

for (const target of databaseTargets()) {
  describe(`image search over images attached by the media route (${target.name})`, () => {
    let h: Harness;
    let call: Call;
    let files: TestServer;
    let dataDir: string;
    before(async () => {
      files = await serveHttp((req, res) => {
        const body = req.url === '/photo.jpg' ? pictures.photo : req.url === '/other.jpg' ? pictures.other : null;
        if (!body) return res.writeHead(404).end();
        res.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': body.length }).end(body);
      });
      dataDir = mkdtempSync(path.join(tmpdir(), 'pimbridge-image-search-'));
      h = await harness(target, { DATA_DIR: dataDir, MEDIA_ALLOW_PRIVATE_NETWORKS: 'true' });
      call = h.as(await h.tenant());
    });
    after(async () => {
      await h.close();
      await files.close();
      rmSync(dataDir, { recursive: true, force: true });
    });

    it('finds a product by the photo attached with POST /media, and no longer once the media is deleted', async () => {
      const product = await createProduct(call, { name: 'Attached photo' });
      const other = await createProduct(call, { name: 'Other photo' });
      const attached = okData(await call('POST', `/api/products/${product.id}/media`, { file_url: `${files.url}/photo.jpg` }), 201);
      okData(await call('POST', `/api/products/${other.id}/media`, { file_url: `${files.url}/other.jpg` }), 201);
      const data = okData(await search(call, [imagePart(pictures.halfQ70, 'small.jpg')]));
      assert.deepEqual(
        data.products.map((x: Hit) => [x.id, x.match.media_id]),
        [[product.id, attached.id]],
      );
      assert.deepEqual(data.products[0].images, [attached.url]);
      okData(await call('DELETE', `/api/products/${product.id}/media/${attached.id}`));
      assert.deepEqual(okData(await search(call, [imagePart(pictures.halfQ70, 'small.jpg')])), { products: [], total: 0 });
    });
  });
}

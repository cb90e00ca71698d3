// The sandbox's media lifecycle over real HTTP, on both databases: a media made from `originalSource` is committed
// UPLOADED, fetched by the sandbox after the commit (PROCESSING), then READY with the sandbox's own URL serving the
// fetched bytes, or FAILED with a MediaErrorCode (a 404 source: IMAGE_DOWNLOAD_FAILURE; an HTML page:
// UNSUPPORTED_IMAGE_FILE_TYPE; a file over 20 MB: INVALID_IMAGE_FILE_SIZE). The sources are a local HTTP server serving
// a real PNG made with sharp. Also: files by {id} keep their media, the CDN route's refusals, media created by a bulk
// mutation, and media left unfinished by a process that stopped are fetched again by the next one.
import assert from 'node:assert/strict';
import http from 'node:http';
import type net from 'node:net';
import { after, before, describe, it } from 'node:test';
import sharp from 'sharp';
import { sql } from 'drizzle-orm';
import { SandboxProductRepository } from '../src/sandbox/sandbox-product.repository.js';
import { startApp } from '../src/server/start-app.js';
import { ProductSetBulk } from '../src/storefront/shopify/operations.js';
import { freePort } from './helpers/connector.js';
import { databaseTargets, harness, testConfig, type Harness } from './helpers/harness.js';
import { until } from './helpers/until.js';

type Json = any;

const PRODUCT_SET = /* GraphQL */ `
  mutation MediaSet($identifier: ProductSetIdentifiers, $input: ProductSetInput!) {
    productSet(identifier: $identifier, input: $input) {
      product { id media(first: 20) { nodes { ...M } } }
      userErrors { field message code }
    }
  }
  fragment M on Media {
    id
    alt
    status
    mediaContentType
    mediaErrors { code message details }
    preview { status image { url } }
    ... on MediaImage { fileStatus mimeType image { url } originalSource { url fileSize } fileErrors { code } }
  }
`;
const PRODUCT_MEDIA = /* GraphQL */ `
  query ProductMedia($id: ID!) {
    product(id: $id) {
      media(first: 20) {
        nodes {
          id alt status mediaContentType
          mediaErrors { code message details }
          preview { status image { url } }
          ... on MediaImage { fileStatus mimeType image { url } originalSource { url fileSize } fileErrors { code } }
        }
      }
    }
  }
`;
const UNFINISHED = ['UPLOADED', 'PROCESSING'];

/** The sources: a PNG, a held PNG (answers when released), a 404, an HTML page and a file announced as 25 MB. */
class SourceServer {
  readonly server: http.Server;
  private readonly sockets = new Set<net.Socket>();
  private held: (() => void)[] = [];
  requests = 0;
  port = 0;

  constructor(readonly png: Buffer) {
    this.server = http.createServer((req, res) => {
      this.requests++;
      const path = (req.url ?? '').split('?')[0];
      if (path.endsWith('/photo.png')) return res.writeHead(200, { 'content-type': 'image/png' }).end(png);
      if (path.endsWith('/held.png')) {
        this.held.push(() => res.writeHead(200, { 'content-type': 'image/png' }).end(png));
        return;
      }
      if (path === '/page.html')
        return res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<!doctype html><html><body>Not an image</body></html>');
      if (path === '/huge.png') {
        res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(25 * 1024 * 1024) });
        res.write(png);
        return; // never finishes: the announced size is refused first
      }
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found');
    });
    this.server.on('connection', (s) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
  }

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as net.AddressInfo).port;
  }

  url(path: string): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  /** Requests for held.png waiting for release(). */
  get heldCount(): number {
    return this.held.length;
  }

  release(): void {
    for (const answer of this.held.splice(0)) answer();
  }

  async stop(): Promise<void> {
    this.release();
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

for (const target of databaseTargets()) {
  describe(`sandbox media lifecycle (${target.name})`, () => {
    let h: Harness;
    let base: string;
    let token: string;
    let sources: SourceServer;
    const domain = 'media.myshopify.com';
    const env = (port: number) => ({ SHOPIFY_SANDBOX: 'true', PUBLIC_URL: `http://127.0.0.1:${port}` });

    async function gql(query: string, variables: Json = {}, at = base): Promise<Json> {
      const res = await fetch(`${at}/sandbox/shopify/${domain}/admin/api/2026-10/graphql.json`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-shopify-access-token': token },
        body: JSON.stringify({ query, variables }),
      });
      assert.equal(res.status, 200);
      const body = (await res.json()) as Json;
      assert.equal(body.errors, undefined, JSON.stringify(body.errors));
      return body.data;
    }
    const media = async (id: string, at = base): Promise<Json[]> => (await gql(PRODUCT_MEDIA, { id }, at)).product.media.nodes;
    // The media are processed asynchronously.
    const processed = (id: string, at = base) =>
      until(`media of ${id}`, async () => {
        const nodes = await media(id, at);
        if (nodes.some((m) => UNFINISHED.includes(m.status))) throw new Error(`still ${JSON.stringify(nodes)}`);
        return nodes;
      });
    /** The first media's status as stored (through the sandbox's repository: a read through a running sandbox would take it up). */
    const statusOf = async (productGid: string): Promise<string> => {
      const [first] = await new SandboxProductRepository(h.database.db).media(Number(productGid.split('/').pop()), -1, 1);
      return first.status;
    };
    const cdn = (mediaId: string, name: string) => `${base}/sandbox/shopify/${domain}/cdn/files/${mediaId.split('/').pop()}/${name}`;

    before(async () => {
      sources = new SourceServer(
        await sharp({ create: { width: 8, height: 6, channels: 3, background: { r: 200, g: 30, b: 30 } } })
          .png()
          .toBuffer(),
      );
      await sources.start();
      const port = await freePort();
      h = await harness(target, env(port));
      await h.app.listen({ port, host: '127.0.0.1' });
      base = `http://127.0.0.1:${port}`;
      token = (await h.app.services.sandbox!.stores.create(domain)).accessToken;
      // The sources are a local server (127.0.0.1): the store opts in to fetch them (test/security-addresses.test.ts
      // shows a store that has not refusing them).
      await h.app.services.sandbox!.stores.configure(domain, { allow_private_media_sources: true });
    });
    after(async () => {
      await h.close();
      await sources.stop();
    });

    it("UPLOADED, then READY with the sandbox's own URL serving the fetched bytes; a 404 and an HTML page FAILED with their codes", async () => {
      const files = [
        { originalSource: sources.url('/a/held.png'), alt: 'front' },
        { originalSource: sources.url('/missing.png'), alt: 'gone' },
        { originalSource: sources.url('/page.html') },
      ];
      const res = (await gql(PRODUCT_SET, { input: { title: 'Media Lifecycle', files } })).productSet;
      assert.deepEqual(res.userErrors, []);
      const id = res.product.id;
      const [photo] = res.product.media.nodes;
      // The answer comes before the file is processed (its source holds the answer): no file, no URL yet.
      assert.ok(UNFINISHED.includes(photo.status), photo.status);
      assert.deepEqual(
        {
          status: photo.fileStatus,
          image: photo.image,
          preview: photo.preview.image,
          original: photo.originalSource.url,
          errors: photo.mediaErrors,
          alt: photo.alt,
        },
        { status: photo.status, image: null, preview: null, original: null, errors: [], alt: 'front' },
      );
      assert.ok(!JSON.stringify(res).includes(`127.0.0.1:${sources.port}`), 'the source URL is never echoed');
      await until('the held request', () => sources.heldCount === 1);
      assert.equal((await media(id))[0].status, 'PROCESSING', 'fetched by the sandbox: PROCESSING until the source answers');
      sources.release();

      const [ready, missing, page] = await processed(id);
      const url = cdn(ready.id, 'held.png');
      assert.deepEqual(
        { ...ready, id: undefined },
        {
          id: undefined,
          alt: 'front',
          status: 'READY',
          fileStatus: 'READY',
          mediaContentType: 'IMAGE',
          mimeType: 'image/png',
          mediaErrors: [],
          fileErrors: [],
          image: { url },
          preview: { status: 'READY', image: { url } },
          originalSource: { url, fileSize: sources.png.length },
        },
      );
      const file = await fetch(url); // no token, like a CDN
      assert.equal(file.status, 200);
      assert.equal(file.headers.get('content-type'), 'image/png');
      assert.deepEqual(Buffer.from(await file.arrayBuffer()), sources.png, 'the same bytes as the source');

      assert.equal(missing.status, 'FAILED');
      assert.equal(missing.mediaErrors.length, 1);
      assert.equal(missing.mediaErrors[0].code, 'IMAGE_DOWNLOAD_FAILURE');
      assert.ok(missing.mediaErrors[0].message.length > 0);
      assert.match(missing.mediaErrors[0].details, /404/);
      assert.deepEqual(
        [missing.fileStatus, missing.image, missing.preview, missing.originalSource.url, missing.fileErrors],
        ['FAILED', null, { status: 'FAILED', image: null }, null, [{ code: 'IMAGE_DOWNLOAD_FAILURE' }]],
      );
      assert.equal((await fetch(cdn(missing.id, 'missing.png'))).status, 404, 'a FAILED media has no file');

      assert.equal(page.status, 'FAILED');
      assert.deepEqual(
        page.mediaErrors.map((e: Json) => e.code),
        ['UNSUPPORTED_IMAGE_FILE_TYPE'],
      );
      assert.ok(page.mediaErrors[0].message.length > 0);
    });

    it('a file announced over 20 MB is FAILED with INVALID_IMAGE_FILE_SIZE', async () => {
      const res = (await gql(PRODUCT_SET, { input: { title: 'Huge', files: [{ originalSource: sources.url('/huge.png') }] } })).productSet;
      const [huge] = await processed(res.product.id);
      assert.equal(huge.status, 'FAILED');
      assert.deepEqual(
        huge.mediaErrors.map((e: Json) => e.code),
        ['INVALID_IMAGE_FILE_SIZE'],
      );
    });

    it('files: {id} keeps that media as it is; originalSource always adds a new one, processed on its own', async () => {
      const created = (await gql(PRODUCT_SET, { input: { title: 'Keep Me', files: [{ originalSource: sources.url('/k/photo.png') }] } })).productSet.product;
      const [first] = await processed(created.id);
      assert.equal(first.status, 'READY');
      const fetched = sources.requests;
      const res = (
        await gql(PRODUCT_SET, {
          identifier: { id: created.id },
          input: { files: [{ id: first.id, alt: 'kept' }, { originalSource: sources.url('/k/photo.png') }] },
        })
      ).productSet;
      assert.deepEqual(res.userErrors, []);
      const [kept, added] = res.product.media.nodes;
      assert.deepEqual([kept.id, kept.status, kept.image, kept.alt], [first.id, 'READY', first.image, 'kept'], 'kept, not fetched again');
      assert.notEqual(added.id, first.id);
      const [, done] = await processed(created.id);
      assert.equal(done.status, 'READY');
      assert.equal(done.image.url, cdn(done.id, 'photo.png'));
      assert.notEqual(done.image.url, first.image.url);
      assert.equal(sources.requests, fetched + 1, 'only the new source was fetched');
    });

    it('the file route answers 404 for another store, another name, an unknown id and a product deleted', async () => {
      const created = (
        await gql(PRODUCT_SET, { input: { title: 'Routes', files: [{ originalSource: sources.url('/r/photo.png'), filename: 'front view.png' }] } })
      ).productSet.product;
      const [m] = await processed(created.id);
      const url = cdn(m.id, 'front%20view.png');
      assert.equal(m.image.url, url, 'FileSetInput.filename names the file, URL-encoded');
      assert.equal((await fetch(url)).status, 200);
      const n = m.id.split('/').pop();
      assert.equal((await fetch(`${base}/sandbox/shopify/other.myshopify.com/cdn/files/${n}/front%20view.png`)).status, 404);
      assert.equal((await fetch(`${base}/sandbox/shopify/${domain}/cdn/files/${n}/other.png`)).status, 404);
      assert.equal((await fetch(`${base}/sandbox/shopify/${domain}/cdn/files/999999999/front%20view.png`)).status, 404);
      await gql(`mutation D($input: ProductDeleteInput!) { productDelete(input: $input) { deletedProductId } }`, { input: { id: created.id } });
      assert.equal((await fetch(url)).status, 404);
    });

    it('media made by a bulk mutation line follow the same path', async () => {
      const stage = await gql(
        `mutation S($input: [StagedUploadInput!]!) { stagedUploadsCreate(input: $input) { stagedTargets { url parameters { name value } } userErrors { message } } }`,
        {
          input: [{ resource: 'BULK_MUTATION_VARIABLES', filename: 'p.jsonl', mimeType: 'text/jsonl', httpMethod: 'POST' }],
        },
      );
      const target = stage.stagedUploadsCreate.stagedTargets[0];
      const line = {
        input: {
          title: 'Bulk Media',
          handle: 'bulk-media',
          files: [{ originalSource: sources.url('/b/photo.png') }, { originalSource: sources.url('/b/missing.png') }],
        },
        variants: 1,
        media: 2,
      };
      const form = new FormData();
      for (const p of target.parameters) form.append(p.name, p.value);
      form.append('file', new Blob([`${JSON.stringify(line)}\n`], { type: 'text/jsonl' }), 'p.jsonl');
      assert.equal((await fetch(target.url, { method: 'POST', body: form })).status, 201);
      const path = target.parameters.find((p: Json) => p.name === 'key').value;
      const run = (
        await gql(
          `mutation R($m: String!, $p: String!) { bulkOperationRunMutation(mutation: $m, stagedUploadPath: $p) { bulkOperation { id } userErrors { message } } }`,
          { m: ProductSetBulk, p: path },
        )
      ).bulkOperationRunMutation;
      assert.deepEqual(run.userErrors, []);
      const op = await until('the bulk operation', async () => {
        const o = (await gql(`query O($id: ID!) { bulkOperation(id: $id) { status } }`, { id: run.bulkOperation.id })).bulkOperation;
        if (['CREATED', 'RUNNING'].includes(o.status)) throw new Error(`still ${JSON.stringify(o)}`);
        return o;
      });
      assert.equal(op.status, 'COMPLETED');
      const product = (await gql(`query { productByIdentifier(identifier: { handle: "bulk-media" }) { id } }`)).productByIdentifier;
      const [photo, missing] = await processed(product.id);
      assert.deepEqual(
        [photo.status, photo.image.url, missing.status, missing.mediaErrors[0].code],
        ['READY', cdn(photo.id, 'photo.png'), 'FAILED', 'IMAGE_DOWNLOAD_FAILURE'],
      );
    });

    it('media a stopped process left PROCESSING are fetched again by the next one; unfinished media found on a read are taken up', async () => {
      // A second server on the same database: stopped while its download is held, then another one starts.
      const port1 = await freePort();
      const first = await startApp({ config: testConfig(env(port1)), database: h.database, logger: false });
      await first.listen({ port: port1, host: '127.0.0.1' });
      const at1 = `http://127.0.0.1:${port1}`;
      const created = (await gql(PRODUCT_SET, { input: { title: 'Restart', files: [{ originalSource: sources.url('/s/held.png') }] } }, at1)).productSet
        .product;
      await until('the held request', () => sources.heldCount === 1);
      await first.close();
      // Read in the repository: a read through a running sandbox would take it up.
      assert.equal(await statusOf(created.id), 'PROCESSING', 'the stopped process left it unfinished');
      sources.release(); // the first process's download ends; it writes nothing any more

      const port2 = await freePort();
      const second = await startApp({ config: testConfig(env(port2)), database: h.database, logger: false });
      try {
        await second.listen({ port: port2, host: '127.0.0.1' });
        // Nobody reads the product: the start alone takes it up.
        await until('the held request again', () => sources.heldCount === 1);
        sources.release();
        const [done] = await processed(created.id, `http://127.0.0.1:${port2}`);
        assert.deepEqual([done.status, done.mimeType], ['READY', 'image/png']);

        // A media some other process marked UPLOADED and dropped (a state no route sets): reading the product's media takes it up.
        await h.database.db.execute(sql`update sandbox_media set status = 'UPLOADED' where id = ${Number(done.id.split('/').pop())}`);
        assert.equal(await statusOf(created.id), 'UPLOADED');
        const [again] = await until('the media taken up on read', async () => {
          const nodes = await media(created.id, `http://127.0.0.1:${port2}`);
          if (sources.heldCount) sources.release();
          if (nodes[0].status !== 'READY') throw new Error(`still ${JSON.stringify(nodes)}`);
          return nodes;
        });
        assert.equal(
          again.image.url,
          `http://127.0.0.1:${port2}/sandbox/shopify/${domain}/cdn/files/${done.id.split('/').pop()}/held.png`,
          'the URL of the server asked',
        );
      } finally {
        await second.close();
      }
    });
  });
}

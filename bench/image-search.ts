// The image-search scenario: an organization of its own with 25,000 products and 100,000 stored images (random but
// pHash-like hashes, plus the hashes of a few real pictures), bulk-loaded with SQL. Measured: the search statement
// alone at several distances (one connection, no HTTP), then `POST /api/products/image-search` with a small real JPEG
// evenly paced at a moderate rate (the target: p95 ≤ 50 ms) and at full speed under autocannon, each against a
// baseline in the same run: bare Fastify + @fastify/multipart that decodes and hashes the same upload but does not
// search (bench/image-search-baseline.ts), so the difference is the search (and auth, rate limit, logging, product read).
// run.ts runs it against its PostgreSQL server; `tsx bench/image-search.ts [--smoke]` runs it alone against a scratch
// database and a server started from src/ (--smoke: short load runs at a low rate; the 100,000 images stay).
import path from 'node:path';
import { PgDialect } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { searchStatement } from '../src/pim/image-search/image-search.repository.js';
import { decodeImage, hammingDistance } from '../src/pim/images/image-decoder.js';
import { asWebp, croppedJpeg, resizedJpeg, syntheticPhoto } from '../test/helpers/synthetic-photo.js';
import { start, stop, waitFor200 } from './children.js';
import { runLoad, runPaced, type LoadResult } from './measure.js';
import { runIfMain, withScratchServer } from './scratch.js';

export const IMAGE_SEARCH_PATH = '/api/products/image-search';
export const IMAGE_SEARCH_TARGET_MS = 50;
const IMAGES_PER_PRODUCT = 4;
/** Distances whose search statement is timed alone: the default, the largest served by the chunk indexes, one pass. */
const QUERY_DISTANCES = [10, 15, 16, 32];

export interface ImageSearchResult {
  images: number;
  products: number;
  seedSeconds: number;
  upload: { bytes: number; width: number; height: number };
  /** What the upload found: products within the default distance, and the planted original's distance. */
  answer: { products: number; originalDistance: number };
  /** The search statement alone, one at a time on one connection, ms (no HTTP, no decode). */
  query: { distance: number; path: string; runs: number; p50: number; p95: number; rows: number }[];
  rate: number;
  seconds: number;
  connections: number;
  paced: { ours: LoadResult; baseline: LoadResult };
  load: { ours: LoadResult; baseline: LoadResult };
}

export interface ImageSearchOptions {
  /** Base URL of a running Pimbridge server on `dbUrl`. */
  url: string;
  /** Headers of the admin API (Authorization: Bearer …, JSON content type). */
  adminHeaders: Record<string, string>;
  dbUrl: string;
  /** The repository root (the baseline is started from bench/) and a directory for its log. */
  root: string;
  logDir: string;
  images?: number;
  /** Evenly paced requests per second (the target's rate). */
  rate?: number;
  seconds?: number;
  warmupSeconds?: number;
  connections?: number;
  queryRuns?: number;
  /** The server's and the database's processes (the baseline's is added), for the CPU-used-by-others figure. */
  ownPids?: () => Promise<number[]>;
  log?: (msg: string) => void;
}

/** A seeded generator of pHash-like values: the DC bit set and 31 of the other 63 bits, as the median split gives. */
function hashGenerator(seed: number): () => bigint {
  let state = seed >>> 0;
  const random = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const positions = Array.from({ length: 63 }, (_, i) => i);
  return () => {
    for (let i = positions.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [positions[i], positions[j]] = [positions[j], positions[i]];
    }
    let hash = 1n << 63n;
    for (let k = 0; k < 31; k++) hash |= 1n << BigInt(positions[k]);
    return BigInt.asIntN(64, hash);
  };
}

/** The pictures of the scenario: the upload (a small JPEG), and the stored images it should find. */
async function pictures() {
  const original = await syntheticPhoto(1);
  return {
    upload: await resizedJpeg(original, 0.5, 70),
    /** Planted on the first products, in this order: the original, two close copies, four unrelated pictures. */
    planted: [original, await croppedJpeg(original, 0.05), await asWebp(original), ...(await Promise.all([2, 3, 4, 5].map((s) => syntheticPhoto(s))))],
  };
}

/** Products and images of `organizationId`, straight into PostgreSQL; returns the product ids in order. */
export async function seedImages(
  db: pg.Client,
  organizationId: number,
  images: number,
  planted: bigint[],
): Promise<{ products: number; productIds: number[] }> {
  const products = Math.ceil(images / IMAGES_PER_PRODUCT);
  await db.query('BEGIN');
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO products (organization_id, sku, slug, name, status, price)
     SELECT $1, 'IMG-' || lpad(g::text, 6, '0'), 'image-product-' || g, 'Image product ' || g, 'active', 10 + g % 90
     FROM generate_series(1, $2::int) g ORDER BY g RETURNING id`,
    [organizationId, products],
  );
  const productIds = rows.map((r) => r.id).sort((a, b) => a - b);
  const next = hashGenerator(42);
  const BATCH = 10_000;
  for (let offset = 0; offset < images; offset += BATCH) {
    const ids: number[] = [];
    const hashes: string[] = [];
    for (let i = offset; i < Math.min(images, offset + BATCH); i++) {
      ids.push(productIds[i % products]);
      // The first images are the real pictures' hashes, the rest pHash-like random values.
      hashes.push((i < planted.length ? planted[i] : next()).toString());
    }
    // Columns as the media route writes them (a content-addressed key, the source URL, a SHA-256), so rows are as wide.
    await db.query(
      `INSERT INTO product_media (organization_id, product_id, storage_key, source_url, alt_text, position, mime_type, width, height,
         size_bytes, sha256, phash)
       SELECT $1, t.product_id, substr(md5(t.n::text), 1, 2) || '/' || md5(t.n::text) || md5('x' || t.n) || '.jpg',
         'https://cdn.example.com/catalogue/images/' || t.n || '.jpg', 'Product photo ' || t.n, 0, 'image/jpeg', 1200, 900,
         180000 + t.n % 50000, md5(t.n::text) || md5('y' || t.n), t.phash
       FROM (SELECT u.product_id, u.phash, u.k + $4 AS n FROM unnest($2::int[], $3::bigint[]) WITH ORDINALITY AS u(product_id, phash, k)) t`,
      [organizationId, ids, hashes, offset],
    );
  }
  await db.query('COMMIT');
  await db.query('VACUUM ANALYZE products, product_media');
  return { products, productIds };
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

/** The search statement alone, as the server sends it (named prepared statement), `runs` times per distance. */
async function timeQueries(db: pg.Client, organizationId: number, queryHash: bigint, runs: number): Promise<ImageSearchResult['query']> {
  const dialect = new PgDialect();
  const random = hashGenerator(7);
  const out: ImageSearchResult['query'] = [];
  for (const distance of QUERY_DISTANCES) {
    const name = `image_search_${distance > 15 ? 'pass' : 'chunks'}`;
    const run = async (hash: bigint) => {
      const q = dialect.sqlToQuery(searchStatement(organizationId, hash, distance, 20));
      const started = performance.now();
      const result = await db.query({ name, text: q.sql, values: q.params as unknown[] });
      return { ms: performance.now() - started, rows: result.rows.length };
    };
    for (let i = 0; i < 10; i++) await run(random());
    const times: number[] = [];
    let rows = 0;
    // Half the searches are the upload's hash (a few matches), half unrelated hashes (next to none at distance 10).
    for (let i = 0; i < runs; i++) {
      const r = await run(i % 2 === 0 ? queryHash : random());
      times.push(r.ms);
      rows += r.rows;
    }
    times.sort((a, b) => a - b);
    out.push({
      distance,
      path: distance > 15 ? 'one pass over the images' : 'four chunk indexes',
      runs,
      p50: percentile(times, 50),
      p95: percentile(times, 95),
      rows: rows / runs,
    });
  }
  return out;
}

/** A multipart/form-data body with the file in the field `image`, as curl -F sends it. */
async function multipartBody(bytes: Buffer): Promise<{ body: Buffer; contentType: string }> {
  const form = new FormData();
  form.append('image', new Blob([new Uint8Array(bytes)], { type: 'image/jpeg' }), 'query.jpg');
  const request = new Request('http://localhost/', { method: 'POST', body: form });
  return { body: Buffer.from(await request.arrayBuffer()), contentType: request.headers.get('content-type')! };
}

/** Creates the organization and its key through the admin API, seeds the images, checks the answers, measures. */
export async function benchImageSearch(o: ImageSearchOptions): Promise<ImageSearchResult> {
  const log = o.log ?? (() => {});
  const images = o.images ?? 100_000;
  const rate = o.rate ?? 50;
  const seconds = o.seconds ?? 10;
  const warmupSeconds = o.warmupSeconds ?? 2;
  const connections = o.connections ?? 8;
  const post = async <T>(p: string, body: unknown): Promise<T> => {
    const res = await fetch(`${o.url}${p}`, { method: 'POST', headers: o.adminHeaders, body: JSON.stringify(body) });
    if (!res.ok) throw new Error(`POST ${p}: ${res.status} ${await res.text()}`);
    return (await res.json()) as T;
  };
  const org = await post<{ id: number }>('/admin/organizations', { name: 'Bench image search' });
  const key = await post<{ api_key: string }>(`/admin/organizations/${org.id}/api-keys`, { name: 'bench images' });

  const pics = await pictures();
  const planted = await Promise.all(pics.planted.map(async (b) => (await decodeImage(b)).phash));
  const uploadDecoded = await decodeImage(pics.upload);

  log(`image search: seeding ${images.toLocaleString('en-US')} images`);
  const seedStarted = performance.now();
  const db = new pg.Client(o.dbUrl);
  db.on('error', () => {});
  await db.connect();
  let seeded: Awaited<ReturnType<typeof seedImages>>;
  let seedSeconds: number;
  let query: ImageSearchResult['query'];
  try {
    seeded = await seedImages(db, org.id, images, planted);
    seedSeconds = (performance.now() - seedStarted) / 1000;
    log(`image search: seeded in ${seedSeconds.toFixed(1)} s; timing the search statement alone`);
    const statement = new PgDialect().sqlToQuery(searchStatement(org.id, uploadDecoded.phash, 10, 20));
    const plan = (await db.query<Record<string, string>>(`EXPLAIN ${statement.sql}`, statement.params as unknown[])).rows
      .map((r) => Object.values(r)[0])
      .join('\n');
    if (!/product_media_phash_chunk0_idx/.test(plan)) throw new Error(`the search at distance 10 does not use the chunk indexes:\n${plan}`);
    query = await timeQueries(db, org.id, uploadDecoded.phash, o.queryRuns ?? 200);
  } finally {
    await db.end();
  }

  const basePort = 20_000 + Math.floor(Math.random() * 20_000);
  const baseline = start(
    'image-search-baseline',
    ['--import', 'tsx', 'bench/image-search-baseline.ts'],
    { PATH: process.env.PATH, BASELINE_PORT: String(basePort) },
    path.join(o.logDir, 'image-search-baseline.log'),
    o.root,
  );
  const base = `http://127.0.0.1:${basePort}`;
  try {
    await waitFor200(baseline, `${base}/healthz`);
    const { body, contentType } = await multipartBody(pics.upload);
    const headers = { 'x-api-key': key.api_key, 'content-type': contentType };

    // Both answer as expected before anything is timed.
    const answer = await fetch(`${o.url}${IMAGE_SEARCH_PATH}`, { method: 'POST', headers, body: new Uint8Array(body) });
    const found = (await answer.json()) as { data: { products: { id: number; match: { distance: number } }[]; total: number } };
    const original = found.data?.products[0];
    if (answer.status !== 200 || original?.id !== seeded.productIds[0])
      throw new Error(`image search answered ${answer.status} ${JSON.stringify(found).slice(0, 300)}`);
    const baseAnswer = (await (
      await fetch(`${base}/hash`, { method: 'POST', headers: { 'content-type': contentType }, body: new Uint8Array(body) })
    ).json()) as { phash: string };
    if (BigInt(baseAnswer.phash) !== uploadDecoded.phash) throw new Error(`the baseline hashed the upload as ${baseAnswer.phash}`);

    const ownPids = async () => [...((await o.ownPids?.()) ?? []), baseline.pid];
    const spec = {
      ours: { url: o.url, path: () => IMAGE_SEARCH_PATH, headers, method: 'POST' as const, body, ownPids },
      baseline: { url: base, path: () => '/hash', headers: { 'content-type': contentType }, method: 'POST' as const, body, ownPids },
    };
    const paced = {} as ImageSearchResult['paced'];
    const load = {} as ImageSearchResult['load'];
    for (const who of ['baseline', 'ours'] as const) {
      log(`image search: ${who}, ${rate} requests/s evenly paced, ${seconds} s`);
      await runPaced({ ...spec[who], rate, seconds: warmupSeconds });
      paced[who] = await runPaced({ ...spec[who], rate, seconds });
    }
    for (const who of ['baseline', 'ours'] as const) {
      log(`image search: ${who}, autocannon ${connections} connections, ${seconds} s`);
      await runLoad({ ...spec[who], connections, seconds: warmupSeconds });
      load[who] = await runLoad({ ...spec[who], connections, seconds });
    }
    return {
      images,
      products: seeded.products,
      seedSeconds,
      upload: { bytes: pics.upload.length, width: uploadDecoded.width, height: uploadDecoded.height },
      answer: { products: found.data.total, originalDistance: hammingDistance(uploadDecoded.phash, planted[0]) },
      query,
      rate,
      seconds,
      connections,
      paced,
      load,
    };
  } finally {
    await stop(baseline);
  }
}

const n0 = (x: number) => Math.round(x).toLocaleString('en-US');
const ms = (x: number) => `${x.toFixed(2)} ms`;
const pct = (x: number) => `${(x * 100).toFixed(0)} %`;

/** The row for the targets table of RESULTS.md. */
export function imageSearchTarget(r: ImageSearchResult) {
  const x = r.paced.ours;
  const kept = x.requestsPerSecond >= r.rate * 0.95 && x.failures === 0;
  return {
    what: `image search over ${n0(r.images)} images: p95 latency of \`POST ${IMAGE_SEARCH_PATH}\` at ${r.rate} requests/s`,
    target: `≤ ${IMAGE_SEARCH_TARGET_MS} ms`,
    measured: `${ms(x.p95)}${kept ? '' : ` (only ${n0(x.requestsPerSecond)} requests/s, ${x.failures} failed)`}; the decode-only baseline ${ms(r.paced.baseline.p95)}`,
    pass: x.p95 <= IMAGE_SEARCH_TARGET_MS && kept,
  };
}

/** The paragraphs and tables for the details of RESULTS.md. */
export function imageSearchDetails(r: ImageSearchResult): string[] {
  const row = (cells: (string | number)[]) => `| ${cells.join(' | ')} |`;
  const run = (name: string, route: string, x: LoadResult) =>
    row([name, `\`${route}\``, n0(x.requestsPerSecond), ms(x.p50), ms(x.p95), ms(x.p99), ms(x.max), x.failures, pct(x.foreignCpu)]);
  return [
    `Image search (\`bench/image-search.ts\`): an organization of its own with ${n0(r.products)} products and ${n0(r.images)} images (${IMAGES_PER_PRODUCT} per product; pHash-like random hashes plus the hashes of seven generated photos), bulk-loaded with SQL in ${r.seedSeconds.toFixed(1)} s. The upload is a ${r.upload.width}×${r.upload.height} JPEG at quality 70 (${n0(r.upload.bytes / 1024)} KB), one of the stored photos resized to half: it finds ${r.answer.products} products at the default distance 10, the original first (distance ${r.answer.originalDistance}).`,
    '',
    "The search statement alone (one connection, as the server sends it: a named prepared statement; half the searches with the upload's hash, half with unrelated ones):",
    '',
    row(['max_distance', 'plan', 'runs', 'p50', 'p95', 'rows returned (mean)']),
    row(['---', '---', '---', '---', '---', '---']),
    ...r.query.map((q) => row([q.distance, q.path, q.runs, ms(q.p50), ms(q.p95), q.rows.toFixed(1)])),
    '',
    `Over HTTP: evenly paced at ${r.rate} requests/s for ${r.seconds} s, then autocannon at ${r.connections} connections for ${r.seconds} s (each after a warm-up). The baseline (\`bench/image-search-baseline.ts\`) is bare Fastify + @fastify/multipart that decodes the same upload and computes its hash with the same code, without authentication, rate limit, logging, search or product read.`,
    '',
    row(['run', 'route', 'requests/s', 'p50', 'p95', 'p99', 'max', 'failed', 'CPU used by others']),
    row(['---', '---', '---', '---', '---', '---', '---', '---', '---']),
    run(`baseline, ${r.rate}/s paced`, 'POST /hash', r.paced.baseline),
    run(`Pimbridge, ${r.rate}/s paced`, `POST ${IMAGE_SEARCH_PATH}`, r.paced.ours),
    run(`baseline, ${r.connections} connections`, 'POST /hash', r.load.baseline),
    run(`Pimbridge, ${r.connections} connections`, `POST ${IMAGE_SEARCH_PATH}`, r.load.ours),
    '',
  ];
}

/** Alone (`npx tsx bench/image-search.ts [--smoke]`): on a scratch database and server. */
runIfMain(import.meta.url, 'image-search', () => {
  const smoke = process.argv.includes('--smoke');
  return withScratchServer('images', async ({ url, adminHeaders, dbUrl, dbName, root, logDir, server, log }) => {
    // The server and the scratch database's backends are ours; anything else on the machine counts as others.
    const monitor = new pg.Client(dbUrl);
    monitor.on('error', () => {});
    await monitor.connect();
    const ownPids = async () => [
      server.pid,
      ...(await monitor.query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE datname = $1`, [dbName])).rows.map((r) => r.pid),
    ];
    const r = await benchImageSearch({
      url,
      ownPids,
      adminHeaders,
      dbUrl,
      root,
      logDir,
      ...(smoke && { rate: 20, seconds: 2, warmupSeconds: 1, connections: 2, queryRuns: 60 }),
      log,
    }).finally(() => monitor.end());
    const t = imageSearchTarget(r);
    return `\n| ${t.what} | ${t.target} | ${t.measured} | ${t.pass ? 'pass' : '**FAIL**'} |\n\n${imageSearchDetails(r).join('\n')}\n`;
  });
});

// Reading a bulk operation's JSONL result (bulk-transfer.ts readJsonl) without buffering a line without bound: lines
// split anywhere across chunks still parse, a line over the cap fails the read (ResultLineTooLong), and the adapter then
// reports the operation as failed instead of reading on.
import assert from 'node:assert/strict';
import type http from 'node:http';
import { after, before, describe, it } from 'node:test';
import { BULK_RESULT_MAX_LINE_BYTES, readJsonl, ResultLineTooLong } from '../src/storefront/shopify/bulk-transfer.js';
import { ShopifyAdapter } from '../src/storefront/shopify/shopify.adapter.js';
import type { StorefrontShop } from '../src/storefront/port/shop.js';
import { serveHttp, type TestServer } from './helpers/servers.js';

/** Writes `chunks` one by one, each flushed before the next, so the reader sees them as separate reads. */
async function writeChunks(res: http.ServerResponse, chunks: Buffer[]): Promise<void> {
  res.writeHead(200, { 'content-type': 'application/jsonl' });
  for (const chunk of chunks) await new Promise<void>((resolve) => res.write(chunk, () => resolve()));
  res.end();
}

/** An endless line: `a` 64 KB at a time until the client goes away. */
function endlessLine(res: http.ServerResponse, state: { bytes: number; closed: Promise<void> }): void {
  res.writeHead(200, { 'content-type': 'application/jsonl' });
  const block = Buffer.alloc(64 * 1024, 'a');
  res.write('{"data":"');
  const pump = () => {
    while (!res.destroyed && res.write(block)) state.bytes += block.length;
    if (!res.destroyed) res.once('drain', pump);
  };
  state.closed = new Promise((resolve) => res.on('close', () => resolve()));
  pump();
}

describe('bulk result reader', () => {
  let server: TestServer;
  let chunks: Buffer[] = [];
  const endless = { bytes: 0, closed: Promise.resolve() };

  before(async () => {
    server = await serveHttp((req, res) => {
      if (req.url?.startsWith('/endless')) return endlessLine(res, endless);
      if (req.url?.includes('/graphql.json')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        const op = {
          id: 'gid://shopify/BulkOperation/1',
          status: 'COMPLETED',
          errorCode: null,
          createdAt: new Date().toISOString(),
          completedAt: null,
          objectCount: '1',
          url: `${server.url}/endless.jsonl`,
          query: '',
        };
        return res.end(
          JSON.stringify({
            data: { bulkOperation: op },
            extensions: {
              cost: { requestedQueryCost: 2, actualQueryCost: 2, throttleStatus: { maximumAvailable: 2000, currentlyAvailable: 1998, restoreRate: 100 } },
            },
          }),
        );
      }
      void writeChunks(res, chunks);
    });
  });
  after(() => server.close());

  const read = async (maxLineBytes?: number) => {
    const lines: unknown[] = [];
    await readJsonl(`${server.url}/result.jsonl`, (v) => lines.push(v), { apiBaseUrl: server.url, timeoutMs: 10_000, maxLineBytes });
    return lines;
  };

  it('parses lines split anywhere across chunks: inside a multi-byte character, CRLF, blank lines, no final newline', async () => {
    const text = '{"n":0,"title":"Süßes Café ☕"}\r\n\n{"n":1,"emoji":"🧵"}\n   \n{"n":2}';
    const bytes = Buffer.from(text, 'utf8');
    const cut = bytes.indexOf(Buffer.from('☕')) + 1; // in the middle of a three-byte character
    chunks = [bytes.subarray(0, 5), bytes.subarray(5, cut), bytes.subarray(cut, cut + 1), bytes.subarray(cut + 1)];
    assert.deepEqual(await read(), [{ n: 0, title: 'Süßes Café ☕' }, { n: 1, emoji: '🧵' }, { n: 2 }]);
  });

  it('accepts a line of exactly the cap and fails on one byte more, ended or not', async () => {
    const line = (bytes: number) => `{"s":"${'x'.repeat(bytes - 8)}"}`; // 8 bytes of JSON around the padding
    assert.equal(Buffer.byteLength(line(100)), 100);
    chunks = [Buffer.from(`${line(100)}\n{"n":1}\n`)];
    assert.equal((await read(100)).length, 2);
    chunks = [Buffer.from(`{"n":0}\n${line(101)}\n`)];
    await assert.rejects(read(100), (err: unknown) => err instanceof ResultLineTooLong && /line longer than 100 bytes/.test(err.message));
    chunks = [Buffer.from(line(60)), Buffer.from(line(60))]; // one unterminated line that grows past the cap
    await assert.rejects(read(100), ResultLineTooLong);
  });

  it('stops reading an endless line at the default cap and closes the connection', async () => {
    endless.bytes = 0;
    await assert.rejects(
      readJsonl(`${server.url}/endless.jsonl`, () => assert.fail('no line is complete'), { apiBaseUrl: server.url, timeoutMs: 30_000 }),
      (err: unknown) =>
        err instanceof ResultLineTooLong && err.kind === 'invalid_response' && err.message.includes(`longer than ${BULK_RESULT_MAX_LINE_BYTES} bytes`),
    );
    assert.ok(endless.bytes < BULK_RESULT_MAX_LINE_BYTES * 2, `read about the cap, not more (${endless.bytes} bytes sent)`);
    await endless.closed; // the reader closed the connection (else the test times out)
  });

  it('the adapter reports an operation whose result has an oversized line as failed, naming why', async () => {
    const shop: StorefrontShop = { domain: 'lines.myshopify.com', apiBaseUrl: server.url, accessToken: 'shpat_x' };
    const state = await new ShopifyAdapter({ retry: { baseDelayMs: 1, maxDelayMs: 2 } }).bulkUpsertState(shop, 'gid://shopify/BulkOperation/1', []);
    assert.equal(state.state, 'failed');
    assert.match(
      state.state === 'failed' ? state.message : '',
      /^bulk operation gid:\/\/shopify\/BulkOperation\/1: the bulk result at .+ has a line longer than 8388608 bytes$/,
    );
  });
});

// lib/keep-alive.ts over real sockets: agentFetch speaks fetch's contract for JSON calls on reused connections; a GET
// whose kept-alive socket the server closed is sent again once; checked agents refuse an address before connecting.
import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';
import { agentFetch, keepAliveAgents, keepAliveGet } from '../src/lib/keep-alive.js';
import { checkedAgents, DownloadError, filteredLookup, systemResolver } from '../src/lib/safe-download.js';
import { serveHttp, type TestServer } from './helpers/servers.js';

const body = (res: import('node:http').IncomingMessage) =>
  new Promise<string>((resolve, reject) => {
    let text = '';
    res.setEncoding('utf8').on('data', (d: string) => (text += d));
    res.once('end', () => resolve(text));
    res.once('error', reject);
  });

describe('agentFetch', () => {
  let server: TestServer;
  before(async () => {
    server = await serveHttp((req, res) => {
      let text = '';
      req.setEncoding('utf8').on('data', (d: string) => (text += d));
      req.on('end', () => {
        if (req.url === '/empty') return void res.writeHead(204).end();
        if (req.url === '/slow') return void setTimeout(() => res.writeHead(200).end('late'), 2_000);
        res.writeHead(201, { 'content-type': 'application/json', 'x-seen': String(req.headers['x-shopify-access-token']) });
        res.end(JSON.stringify({ method: req.method, body: text, type: req.headers['content-type'] }));
      });
    });
  });
  after(() => server.close());

  it('sends method, headers and body; answers status, headers and JSON; reuses one connection', async () => {
    const fetchImpl = agentFetch(keepAliveAgents());
    const before = server.connections;
    for (let i = 0; i < 3; i++) {
      const res = await fetchImpl(`${server.url}/graphql`, {
        method: 'POST',
        headers: new Headers({ 'content-type': 'application/json', 'X-Shopify-Access-Token': 'shpat_x' }),
        body: JSON.stringify({ query: `{ n${i} }` }),
      });
      assert.equal(res.status, 201);
      assert.equal(res.headers.get('x-seen'), 'shpat_x');
      assert.deepEqual(await res.json(), { method: 'POST', body: JSON.stringify({ query: `{ n${i} }` }), type: 'application/json' });
    }
    assert.equal(server.connections - before, 1, 'the three calls shared one kept-alive connection');
  });

  it('a 204 has a null body; an aborted call rejects with the signal', async () => {
    const fetchImpl = agentFetch(keepAliveAgents());
    const empty = await fetchImpl(`${server.url}/empty`);
    assert.equal(empty.status, 204);
    assert.equal(empty.body, null);
    const started = Date.now();
    const err = await fetchImpl(`${server.url}/slow`, { signal: AbortSignal.timeout(100) }).catch((e: Error) => e);
    assert.ok(err instanceof Error && /abort|timeout/i.test(`${err.name} ${err.message}`), String(err));
    assert.ok(Date.now() - started < 1_500, 'gave up at the signal, not at the answer');
  });
});

describe('keepAliveGet', () => {
  let server: net.Server;
  let port = 0;
  let connections = 0;
  before(async () => {
    // The first connection answers its first request, then drops the socket when the second arrives, as a server whose
    // keep-alive timeout ran out at that moment would; later connections answer everything.
    server = net.createServer((socket) => {
      const n = ++connections;
      let requests = 0;
      socket.on('data', () => {
        requests++;
        if (n === 1 && requests === 2) socket.destroy();
        else socket.write(`HTTP/1.1 200 OK\r\nContent-Length: 3\r\nConnection: keep-alive\r\n\r\nc${n}\n`);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as net.AddressInfo).port;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('a GET on a reused socket the server closed is sent again, once, on a new connection', async () => {
    const agents = keepAliveAgents();
    const url = new URL(`http://127.0.0.1:${port}/x`);
    const first = await keepAliveGet(url, agents, {}, new AbortController().signal);
    assert.equal(await body(first), 'c1\n');
    const second = await keepAliveGet(url, agents, {}, new AbortController().signal);
    assert.equal(await body(second), 'c2\n');
    assert.equal(connections, 2);
  });
});

describe('checkedAgents', () => {
  it('refuses an address the policy forbids before connecting, and names the rule', async () => {
    const noLoopback = (address: string) => (address.startsWith('127.') ? 'loopback' : null);
    const agents = checkedAgents(noLoopback, filteredLookup(noLoopback, systemResolver));
    const err = await keepAliveGet(new URL('http://127.0.0.1:9/x'), agents, {}, new AbortController().signal).catch((e: Error) => e);
    assert.ok(err instanceof DownloadError && /^the host is not a public address \(loopback\)$/.test(err.message), String(err));
  });
});

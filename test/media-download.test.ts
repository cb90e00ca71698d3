// The hostile-ground pieces of media, without a database: the address classifier, the safe downloader against real
// local servers (SSRF rules, redirects, size and time limits), the file storage and the PUBLIC_URL setting.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { text } from 'node:stream/consumers';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../src/config.js';
import { ConfigError } from '../src/config/env.js';
import { anyAddress, nonPublicRange, publicAddressesOnly, type AddressPolicy } from '../src/lib/address-policy.js';
import { connectChecked, DownloadError, filteredLookup, SafeDownloader, type Resolver } from '../src/lib/safe-download.js';
import { FileMediaStorage, MEDIA_KEY, mediaKey, mimeOfKey } from '../src/pim/media/storage.js';
import { makeImage, serveHttp, serveRaw, type TestServer } from './helpers/servers.js';
import { until } from './helpers/until.js';

// A self-signed certificate for images.test, valid 2000-2100 (test fixture only).
const TLS = {
  key: `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgH9/xEqswsxFAA5/P
aTrKeB36MqD2EjPkmgPguS+2cH+hRANCAAREjHsWJi6pxvLJASVs6a+YQoNvxkyX
HfbEZNzvVB06apCQdsqeAGpGlUDZMFHKTADJksYYSF5PTOZr+5XEflnd
-----END PRIVATE KEY-----
`,
  cert: `-----BEGIN CERTIFICATE-----
MIIBZzCCAQ2gAwIBAgIBATAKBggqhkjOPQQDAjAWMRQwEgYDVQQDDAtpbWFnZXMu
dGVzdDAgFw0wMDAxMDEwMDAwMDBaGA8yMTAwMDEwMTAwMDAwMFowFjEUMBIGA1UE
AwwLaW1hZ2VzLnRlc3QwWTATBgcqhkjOPQIBBggqhkjOPQMBBwNCAAREjHsWJi6p
xvLJASVs6a+YQoNvxkyXHfbEZNzvVB06apCQdsqeAGpGlUDZMFHKTADJksYYSF5P
TOZr+5XEflndo0owSDAWBgNVHREEDzANggtpbWFnZXMudGVzdDAPBgNVHRMBAf8E
BTADAQH/MB0GA1UdDgQWBBTbXSsPGt7th8AXOhFWNUb9Bnmq+jAKBggqhkjOPQQD
AgNIADBFAiEA1uET/1dT5/nB118r0QQGuLJ81mMnV2dQ7ZfluK2wzycCIBP4Gful
LyIvtIo/fUnP+pkQdIL/h04q33NIXYSGJ2Zi
-----END CERTIFICATE-----
`,
};

/** The test's stand-in for "public": only 127.0.0.1. Everything else (127.0.0.2 included) counts as internal. */
const only127001: AddressPolicy = (address) => (address === '127.0.0.1' ? null : 'outside the test allow-list');

/** Resolves the given names to fixed addresses; anything else does not exist. */
const fakeDns =
  (names: Record<string, string>): Resolver =>
  async (hostname) => {
    const address = names[hostname];
    if (!address) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return [{ address, family: net.isIP(address) }];
  };

async function refusal(promise: Promise<unknown>, message: RegExp): Promise<string> {
  const err = await promise.then(
    () => assert.fail('expected a DownloadError'),
    (e: unknown) => e,
  );
  assert.ok(err instanceof DownloadError, `a DownloadError, got ${String(err)}`);
  assert.match(err.message, message);
  return err.message;
}

describe('address classifier', () => {
  const refused: Array<[string, RegExp]> = [
    ['127.0.0.1', /loopback/],
    ['127.255.255.254', /loopback/],
    ['10.1.2.3', /private/],
    ['172.16.0.1', /private/],
    ['172.31.255.255', /private/],
    ['192.168.1.1', /private/],
    ['169.254.169.254', /link-local/],
    ['100.64.0.1', /carrier-grade NAT/],
    ['0.0.0.0', /unspecified/],
    ['0.1.2.3', /unspecified/],
    ['224.0.0.1', /multicast/],
    ['239.255.255.250', /multicast/],
    ['255.255.255.255', /broadcast/],
    ['240.0.0.1', /reserved/],
    ['192.0.2.10', /reserved/],
    ['198.18.0.1', /reserved/],
    ['::1', /loopback/],
    ['::', /unspecified/],
    ['fe80::1', /link-local/],
    ['fe80::1%eth0', /link-local/],
    ['fc00::1', /unique-local/],
    ['fd12:3456:789a::1', /unique-local/],
    ['ff02::1', /multicast/],
    ['fec0::1', /site-local/],
    ['2001:db8::1', /reserved/],
    ['100::1', /discard/],
    ['::ffff:127.0.0.1', /loopback, embedded in IPv6/],
    ['::ffff:7f00:1', /loopback, embedded in IPv6/],
    ['::ffff:10.0.0.1', /private network, embedded in IPv6/],
    ['::ffff:169.254.169.254', /link-local, embedded in IPv6/],
    ['64:ff9b::7f00:1', /loopback, embedded in IPv6/],
    ['64:ff9b::a00:1', /private network, embedded in IPv6/],
    ['64:ff9b:1::1', /NAT64/],
    ['2002:7f00:1::1', /loopback, embedded in IPv6/],
    ['2002:c0a8:101::1', /private network, embedded in IPv6/],
    ['2001::1', /Teredo|reserved/],
    ['::127.0.0.1', /loopback/],
    ['::7f00:1', /IPv4-compatible/],
    ['4000::1', /reserved/],
    ['not-an-ip', /not an IP address/],
    ['', /not an IP address/],
  ];
  for (const [address, reason] of refused) {
    it(`refuses ${address || '(empty)'}`, () => {
      const why = nonPublicRange(address);
      assert.notEqual(why, null);
      assert.match(why!, reason);
    });
  }

  const allowed = [
    '8.8.8.8',
    '1.1.1.1',
    '93.184.215.14',
    '172.32.0.1',
    '100.128.0.1',
    '192.169.0.1',
    '2606:4700:4700::1111',
    '2a00:1450:4001:80b::200e',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
    '2002:808:808::1',
  ];
  for (const address of allowed) {
    it(`allows the public address ${address}`, () => assert.equal(nonPublicRange(address), null));
  }

  it('the default policy is the classifier; the permissive one allows everything', () => {
    assert.equal(publicAddressesOnly('127.0.0.1'), 'loopback');
    assert.equal(anyAddress('127.0.0.1'), null);
    assert.equal(anyAddress('169.254.169.254'), null);
  });
});

describe('safe downloader', () => {
  let png: Buffer;
  let site: TestServer;
  let internal: TestServer;
  before(async () => {
    png = await makeImage('png');
    // The "public" site on 127.0.0.1 and an "internal" service on 127.0.0.2 that must never be reached.
    site = await serveHttp((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      const to = url.searchParams.get('to');
      if (url.pathname === '/image.png') {
        res.writeHead(200, { 'content-type': 'image/png' });
        res.end(png);
      } else if (url.pathname === '/redirect' && to) {
        res.writeHead(Number(url.searchParams.get('status') ?? 302), { location: to });
        res.end();
      } else if (url.pathname.startsWith('/hop/')) {
        // /hop/N redirects to /hop/N-1 (relative Location); /hop/0 is the image.
        const n = Number(url.pathname.slice(5));
        res.writeHead(n === 0 ? 200 : 301, n === 0 ? { 'content-type': 'image/png' } : { location: `${n - 1}` });
        res.end(n === 0 ? png : undefined);
      } else if (url.pathname === '/no-location') {
        res.writeHead(302);
        res.end();
      } else if (url.pathname === '/error') {
        res.writeHead(Number(url.searchParams.get('status')));
        res.end('nope');
      } else {
        res.writeHead(404);
        res.end('not found');
      }
    });
    internal = await serveHttp(
      (_req, res) => {
        res.writeHead(200, { 'content-type': 'image/png' });
        res.end(png);
      },
      { host: '127.0.0.2' },
    );
  });
  after(async () => {
    await site.close();
    await internal.close();
  });

  const testDownloader = (options: ConstructorParameters<typeof SafeDownloader>[0] = {}) => new SafeDownloader({ addressPolicy: only127001, ...options });

  describe('what it fetches', () => {
    it('downloads a file over http', async () => {
      const got = await testDownloader().fetch(`${site.url}/image.png`);
      assert.deepEqual(got.bytes, png);
      assert.equal(got.contentType, 'image/png');
      assert.equal(got.url, `${site.url}/image.png`);
    });

    it('downloads over https, checking the certificate against the host name', async () => {
      const secure = await serveHttp(
        (_req, res) => {
          res.writeHead(200, { 'content-type': 'image/png' });
          res.end(png);
        },
        { tls: TLS },
      );
      try {
        const dns = fakeDns({ 'images.test': '127.0.0.1', 'other.test': '127.0.0.1' });
        const got = await testDownloader({ resolve: dns, ca: TLS.cert }).fetch(`https://images.test:${secure.port}/a.png`);
        assert.deepEqual(got.bytes, png);
        // An untrusted certificate, and a trusted one for another name, are refused.
        await refusal(testDownloader({ resolve: dns }).fetch(`https://images.test:${secure.port}/a.png`), /^the TLS connection to images\.test:\d+ failed/);
        await refusal(
          testDownloader({ resolve: dns, ca: TLS.cert }).fetch(`https://other.test:${secure.port}/a.png`),
          /^the TLS connection to other\.test:\d+ failed/,
        );
      } finally {
        await secure.close();
      }
    });

    it('follows up to 3 redirects (relative Locations too), and refuses the 4th', async () => {
      assert.deepEqual((await testDownloader().fetch(`${site.url}/hop/3`)).bytes, png);
      const before = site.hits.length;
      await refusal(testDownloader().fetch(`${site.url}/hop/4`), /^more than 3 redirects$/);
      assert.equal(site.hits.length - before, 4, 'the 4th redirect is not followed');
      await refusal(testDownloader({ maxRedirects: 0 }).fetch(`${site.url}/hop/1`), /^more than 0 redirects$/);
    });

    it('follows every redirect status: 301, 302, 303, 307, 308', async () => {
      for (const status of [301, 302, 303, 307, 308]) {
        const got = await testDownloader().fetch(`${site.url}/redirect?status=${status}&to=/image.png`);
        assert.deepEqual(got.bytes, png, `status ${status}`);
      }
    });

    it('names the status of an unsuccessful answer', async () => {
      await refusal(testDownloader().fetch(`${site.url}/missing.png`), /^the server answered 404$/);
      await refusal(testDownloader().fetch(`${site.url}/error?status=500`), /^the server answered 500$/);
      await refusal(testDownloader().fetch(`${site.url}/error?status=304`), /^the server answered 304$/);
      await refusal(testDownloader().fetch(`${site.url}/no-location`), /^the server answered 302 without a Location$/);
    });

    it('names unreachable hosts', async () => {
      await refusal(testDownloader({ resolve: fakeDns({}) }).fetch('http://nowhere.test/a.png'), /^host nowhere\.test could not be resolved$/);
      const closed = await serveRaw(() => {});
      const port = closed.port;
      await closed.close();
      await refusal(testDownloader().fetch(`http://127.0.0.1:${port}/a.png`), /^could not connect to 127\.0\.0\.1:\d+ \(connection refused\)$/);
    });
  });

  describe('schemes', () => {
    for (const url of [
      'ftp://127.0.0.1/a.png',
      'file:///etc/passwd',
      'data:image/png;base64,iVBORw0KGgo=',
      'javascript:alert(1)',
      'gopher://127.0.0.1:70/',
      'ws://127.0.0.1/a',
    ]) {
      it(`refuses ${url.split(':')[0]}: URLs`, async () => {
        await refusal(testDownloader({ addressPolicy: anyAddress }).fetch(url), /^only http and https URLs can be fetched, got [a-z]+:$/);
      });
    }

    it('refuses text that is not a URL', async () => {
      await refusal(testDownloader().fetch('not a url'), /^is not a valid URL$/);
      await refusal(testDownloader().fetch('/relative/path.png'), /^is not a valid URL$/);
    });

    it('refuses a redirect to another scheme', async () => {
      await refusal(
        testDownloader().fetch(`${site.url}/redirect?to=${encodeURIComponent('file:///etc/passwd')}`),
        /^only http and https URLs can be fetched, got file: \(in a redirect\)$/,
      );
      await refusal(testDownloader().fetch(`${site.url}/redirect?to=${encodeURIComponent('ftp://127.0.0.1/a.png')}`), /got ftp: \(in a redirect\)/);
    });
  });

  describe('addresses (SSRF)', () => {
    it('refuses a loopback server by default, by address and by name, without connecting', async () => {
      const connections = site.connections;
      const strict = new SafeDownloader();
      await refusal(strict.fetch(`${site.url}/image.png`), /^the host is not a public address \(loopback\)$/);
      // A host name: the rule and the range, never the address it resolved to.
      await refusal(strict.fetch(`http://localhost:${site.port}/image.png`), /^the host name resolves to a non-public address \(loopback\)$/);
      await refusal(strict.fetch(`http://[::ffff:127.0.0.1]:${site.port}/image.png`), /is not a public address \(loopback, embedded in IPv6\)/);
      await refusal(strict.fetch(`http://2130706433:${site.port}/image.png`), /^the host is not a public address \(loopback\)$/);
      await refusal(strict.fetch(`http://0x7f.1:${site.port}/image.png`), /^the host is not a public address \(loopback\)$/);
      await refusal(strict.fetch(`http://169.254.169.254/latest/meta-data/`), /^the host is not a public address \(link-local\)$/);
      await refusal(strict.fetch(`http://10.0.0.1/a.png`), /\(private network\)$/);
      assert.equal(site.connections, connections, 'no connection was even attempted');
    });

    it('allows a loopback server with the permissive policy (MEDIA_ALLOW_PRIVATE_NETWORKS)', async () => {
      assert.deepEqual((await new SafeDownloader({ addressPolicy: anyAddress }).fetch(`${site.url}/image.png`)).bytes, png);
    });

    it('refuses a redirect to a refused address (IP literal), without touching it', async () => {
      const to = `${internal.url}/secret`;
      await refusal(
        testDownloader().fetch(`${site.url}/redirect?to=${encodeURIComponent(to)}`),
        /^the host is not a public address \(outside the test allow-list\)$/,
      );
      assert.equal(internal.connections, 0);
      assert.deepEqual(internal.hits, []);
    });

    it('refuses a redirect to a host name that resolves to a refused address, without touching it', async () => {
      const dns = fakeDns({ 'site.test': '127.0.0.1', 'intranet.test': '127.0.0.2' });
      const to = `http://intranet.test:${internal.port}/secret`;
      await refusal(
        testDownloader({ resolve: dns }).fetch(`http://site.test:${site.port}/redirect?to=${encodeURIComponent(to)}`),
        /^the host name resolves to a non-public address \(outside the test allow-list\)$/,
      );
      assert.equal(internal.connections, 0);
    });

    it('uses only the allowed addresses of a name that resolves to several', async () => {
      const dual: Resolver = async () => [
        { address: '127.0.0.2', family: 4 },
        { address: '127.0.0.1', family: 4 },
      ];
      const got = await testDownloader({ resolve: dual }).fetch(`http://mixed.test:${site.port}/image.png`);
      assert.deepEqual(got.bytes, png);
      assert.equal(internal.connections, 0);
    });

    it('checks the address actually connected to: a lookup that lies is caught before a byte is sent', async () => {
      // DNS rebinding in its purest form: the lookup answers 127.0.0.2 however it was checked before. connectChecked
      // is the downloader's connection step; fed an unfiltered lookup, only its connected-address check stands.
      const received = await serveRaw(() => {}, '127.0.0.2');
      try {
        const lyingLookup: net.LookupFunction = (_host, options, callback) =>
          options.all ? callback(null, [{ address: '127.0.0.2', family: 4 }]) : callback(null, '127.0.0.2', 4);
        await refusal(
          connectChecked({ host: 'images.example', port: received.port, policy: only127001, lookup: lyingLookup }),
          /^the connection reached a non-public address \(outside the test allow-list\)$/,
        );
        await until('the connection, made and closed', () => received.closed === 1, 2_000, 10);
        assert.equal(received.connections, 1, 'the TCP connection was made…');
        assert.equal(received.bytesReceived, 0, '…but nothing was sent over it');
        // The same lookup behind the policy filter never even connects.
        await refusal(
          connectChecked({
            host: 'images.example',
            port: received.port,
            policy: only127001,
            lookup: filteredLookup(only127001, fakeDns({ 'images.example': '127.0.0.2' })),
          }),
          /^the host name resolves to a non-public address \(outside the test allow-list\)$/,
        );
        assert.equal(received.connections, 1);
        // And an allowed connection is handed over untouched.
        const ok = await connectChecked({ host: '127.0.0.1', port: site.port, policy: only127001, lookup: filteredLookup(only127001, fakeDns({})) });
        assert.equal(ok.remoteAddress, '127.0.0.1');
        ok.destroy();
      } finally {
        await received.close();
      }
    });
  });

  describe('size limit', () => {
    const limit = 1024;
    const limited = () => testDownloader({ maxBytes: limit });

    it('accepts a body of exactly the limit', async () => {
      const server = await serveRaw((socket) => socket.end(`HTTP/1.1 200 OK\r\nContent-Length: ${limit}\r\n\r\n${'x'.repeat(limit)}`));
      try {
        assert.equal((await limited().fetch(`${server.url}/a`)).bytes.length, limit);
      } finally {
        await server.close();
      }
    });

    it('refuses a declared Content-Length over the limit before reading the body', async () => {
      const server = await serveRaw((socket) => socket.write(`HTTP/1.1 200 OK\r\nContent-Length: ${50 * 1024 * 1024}\r\n\r\nxxxx`));
      try {
        await refusal(limited().fetch(`${server.url}/a`), /^download exceeded 1 KB$/);
      } finally {
        await server.close();
      }
    });

    it('stops a chunked body without a length once it passes the limit', async () => {
      let sent = 0;
      const server = await serveRaw((socket) => {
        socket.write('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n');
        const timer = setInterval(() => {
          if (socket.destroyed || sent > 10 * 1024 * 1024) return clearInterval(timer);
          socket.write(`100\r\n${'y'.repeat(256)}\r\n`, () => {});
          sent += 256;
        }, 1);
        socket.on('close', () => clearInterval(timer));
      });
      try {
        await refusal(limited().fetch(`${server.url}/a`), /^download exceeded 1 KB$/);
        // Once the server sees the connection closed it sends no more: `sent` is final.
        await until('the connection, made and closed', () => server.closed === 1, 2_000, 10);
        assert.equal(server.connections, 1);
        assert.ok(sent < 1024 * 1024, `the server was cut off early (${sent} bytes sent)`);
      } finally {
        await server.close();
      }
    });

    it('stops a body delimited by the connection closing once it passes the limit', async () => {
      const server = await serveRaw((socket) => socket.end(`HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n${'z'.repeat(5000)}`));
      try {
        await refusal(limited().fetch(`${server.url}/a`), /^download exceeded 1 KB$/);
      } finally {
        await server.close();
      }
    });

    it('never reads past a Content-Length that understates the body', async () => {
      // The lie in the other direction: 500 bytes announced, 5000 sent. Only the announced bytes are read.
      const server = await serveRaw((socket) => socket.end(`HTTP/1.1 200 OK\r\nContent-Length: 500\r\n\r\n${'w'.repeat(5000)}`));
      try {
        const got = await limited().fetch(`${server.url}/a`);
        assert.equal(got.bytes.length, 500);
      } finally {
        await server.close();
      }
    });

    it('counts the default limit as 20 MB', () => {
      assert.equal(new SafeDownloader().maxBytes, 20 * 1024 * 1024);
      assert.equal(new SafeDownloader().timeoutMs, 10_000);
      assert.equal(new SafeDownloader().maxRedirects, 3);
    });
  });

  describe('time limit', () => {
    it('gives up on a server that never answers', async () => {
      const silent = await serveRaw(() => {});
      try {
        const started = Date.now();
        await refusal(testDownloader({ timeoutMs: 300 }).fetch(`${silent.url}/a`), /^timed out after 0\.3 s$/);
        const took = Date.now() - started;
        assert.ok(took >= 290 && took < 2000, `took ${took} ms`);
      } finally {
        await silent.close();
      }
    });

    it('gives up on a body that trickles in past the deadline', async () => {
      const slow = await serveRaw((socket) => {
        socket.write('HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n');
        const timer = setInterval(() => (socket.destroyed ? clearInterval(timer) : socket.write('.')), 20);
        socket.on('close', () => clearInterval(timer));
      });
      try {
        await refusal(testDownloader({ timeoutMs: 300 }).fetch(`${slow.url}/a`), /^timed out after 0\.3 s$/);
      } finally {
        await slow.close();
      }
    });

    it('counts redirects against the same deadline', async () => {
      const stall = await serveRaw(() => {});
      try {
        await refusal(testDownloader({ timeoutMs: 300 }).fetch(`${site.url}/redirect?to=${encodeURIComponent(`${stall.url}/a`)}`), /^timed out after 0\.3 s$/);
      } finally {
        await stall.close();
      }
    });
  });

  it('reports a connection closed in the middle of the body', async () => {
    const server = await serveRaw((socket) => socket.end('HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\nshort'));
    try {
      await refusal(testDownloader().fetch(`${server.url}/a`), /^the connection to 127\.0\.0\.1:\d+ was closed before the file arrived$/);
    } finally {
      await server.close();
    }
  });

  it('reports an answer that is not HTTP', async () => {
    const server = await serveRaw((socket) => socket.end('SSH-2.0-OpenSSH_9.2\r\n'));
    try {
      await refusal(testDownloader().fetch(`${server.url}/a`), /^the server at 127\.0\.0\.1:\d+ did not answer valid HTTP$/);
    } finally {
      await server.close();
    }
  });
});

describe('file media storage', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'pimbridge-storage-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const key = mediaKey('ab'.repeat(32), 'image/png');

  it('creates its directories on the first write only', async () => {
    const root = path.join(dir, 'lazy', 'media');
    const storage = new FileMediaStorage(root);
    assert.equal(await storage.exists(key), false);
    assert.equal(await storage.get(key), null);
    await storage.delete(key);
    assert.equal(existsSync(path.join(dir, 'lazy')), false, 'reads and deletes create nothing');
    await storage.put(key, Buffer.from('bytes'));
    assert.ok(existsSync(path.join(root, 'ab', key)));
  });

  it('puts atomically, reads back as a stream with its size, deletes idempotently', async () => {
    const storage = new FileMediaStorage(path.join(dir, 'media'));
    await storage.put(key, Buffer.from('first'));
    await storage.put(key, Buffer.from('second version'));
    const file = await storage.get(key);
    assert.ok(file);
    assert.equal(file.size, 14);
    assert.equal(await text(file.stream), 'second version');
    assert.deepEqual(readdirSync(path.join(dir, 'media', 'ab')), [key], 'no temporary files are left');
    assert.equal(await storage.exists(key), true);
    await storage.delete(key);
    await storage.delete(key);
    assert.equal(await storage.exists(key), false);
  });

  it('refuses anything that is not a media key', async () => {
    const storage = new FileMediaStorage(path.join(dir, 'media'));
    for (const bad of ['../secrets.json', `../${key}`, `${'AB'.repeat(32)}.png`, `${'ab'.repeat(32)}.svg`, `${'ab'.repeat(31)}.png`, `${key}/x`, '']) {
      await assert.rejects(storage.put(bad, Buffer.from('x')), /invalid media key/);
      await assert.rejects(storage.get(bad), /invalid media key/);
      await assert.rejects(storage.exists(bad), /invalid media key/);
      await assert.rejects(storage.delete(bad), /invalid media key/);
    }
  });

  it('keys are <sha256>.<ext>, and only those map to a content type', () => {
    assert.equal(mediaKey('0'.repeat(64), 'image/jpeg'), `${'0'.repeat(64)}.jpg`);
    assert.match(key, MEDIA_KEY);
    assert.equal(mimeOfKey(key), 'image/png');
    assert.equal(mimeOfKey(`${'0'.repeat(64)}.webp`), 'image/webp');
    assert.equal(mimeOfKey(`${'0'.repeat(64)}.gif`), 'image/gif');
    assert.equal(mimeOfKey(`${'0'.repeat(64)}.jpg`), 'image/jpeg');
    assert.equal(mimeOfKey('../x.png'), null);
    assert.equal(mimeOfKey(`${'0'.repeat(64)}.png.exe`), null);
  });
});

describe('PUBLIC_URL', () => {
  const base = (env: Record<string, string> = {}) =>
    loadConfig({
      ADMIN_TOKEN: 'a-long-enough-admin-token',
      ENCRYPTION_KEY: Buffer.alloc(32, 1).toString('base64'),
      DATA_DIR: '/nonexistent-config-test-dir',
      ...env,
    });

  it('defaults to http://HOST:PORT', () => {
    assert.equal(base().publicUrl, 'http://127.0.0.1:8080');
    assert.equal(base({ HOST: 'pim.internal', PORT: '9000' }).publicUrl, 'http://pim.internal:9000');
    assert.equal(base({ HOST: '::1' }).publicUrl, 'http://[::1]:8080');
  });

  it('takes an http(s) URL, with a path prefix', () => {
    assert.equal(base({ PUBLIC_URL: 'https://pim.example.com' }).publicUrl, 'https://pim.example.com');
    assert.equal(base({ PUBLIC_URL: 'https://example.com/pim' }).publicUrl, 'https://example.com/pim');
  });

  it('refuses other schemes, a trailing slash, credentials, queries and non-URLs, naming the variable', () => {
    for (const bad of [
      'ftp://example.com',
      'example.com',
      'https://example.com/',
      'https://u:p@example.com',
      'https://example.com?x=1',
      'https://example.com#top',
    ]) {
      assert.throws(
        () => base({ PUBLIC_URL: bad }),
        (err: unknown) => err instanceof ConfigError && /^PUBLIC_URL /.test(err.message),
        bad,
      );
    }
  });
});

// Closing the server does not wait on connections that never sent a request (an HTTP client's socket opened ahead of a
// request it then dropped): they are ended at once, while a request in flight still gets its answer.
import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';
import { databaseTargets, harness, type Harness } from './helpers/harness.js';

describe('closing with connections that never sent a request', () => {
  let h: Harness;
  let port: number;
  before(async () => {
    h = await harness(databaseTargets()[0]);
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    port = (h.app.server.address() as net.AddressInfo).port;
  });
  after(() => h.close());

  const connect = () =>
    new Promise<net.Socket>((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1', () => resolve(socket));
      socket.once('error', reject);
    });
  const ended = (socket: net.Socket) => new Promise<void>((resolve) => socket.once('close', () => resolve()));

  it('ends them at once, and still answers the request in flight on another connection', async () => {
    const silent = [await connect(), await connect()];
    // A request whose body is still on its way when the close begins: it is answered (401, no key), not cut.
    const busy = await connect();
    let answer = '';
    busy.on('data', (chunk) => {
      answer += chunk;
    });
    busy.write('POST /api/products HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{');
    await new Promise((resolve) => setTimeout(resolve, 50)); // the server has the headers: the request is in flight

    const started = Date.now();
    const closing = h.app.close();
    await Promise.all(silent.map(ended));
    busy.write('}');
    await closing;
    assert.ok(Date.now() - started < 5_000, `closed in ${Date.now() - started} ms`);
    assert.match(answer, /^HTTP\/1\.1 401 /);
    busy.destroy();
  });
});

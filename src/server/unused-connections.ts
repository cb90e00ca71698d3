// A connection that has not sent a byte yet holds a closing server open: Node's closeIdleConnections() (which Fastify
// calls on close) leaves it alone, as a request may be on its way, so the close waits out the headers timeout (60 s).
// Such connections come from HTTP clients that connect ahead of a request and then drop the request (an aborted fetch
// leaves undici's new socket in its pool). On close there is no request to wait for on them: they are ended, and a
// connection opened while the server closes is ended at once.
import type { Server } from 'node:http';
import type { Socket } from 'node:net';

export function endUnusedConnectionsOnClose(app: { server: Server; addHook(name: 'preClose', hook: () => Promise<void>): unknown }): void {
  const open = new Set<Socket>();
  let closing = false;
  app.server.on('connection', (socket: Socket) => {
    if (closing) {
      socket.destroy();
      return;
    }
    open.add(socket);
    socket.once('close', () => open.delete(socket));
  });
  app.addHook('preClose', async () => {
    closing = true;
    for (const socket of open) if (socket.bytesRead === 0) socket.destroy();
  });
}

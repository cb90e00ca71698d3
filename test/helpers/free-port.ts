import net from 'node:net';

/**
 * A free TCP port on 127.0.0.1 (for a PUBLIC_URL that must be known before the app is built). Picked at random below
 * the kernel's ephemeral range (32768 and up on Linux), not by listening on port 0: a port from that range is free now
 * but may be taken by any process's outgoing connection before the app listens on it (EADDRINUSE, seen in CI, where the
 * suites of several Node versions run side by side).
 */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    const server = net.createServer();
    const free = await new Promise<boolean>((resolve) => {
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => resolve(true));
    });
    if (free) {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      return port;
    }
  }
}

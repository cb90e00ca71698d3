// Real local servers for the media download tests: HTTP (node:http), HTTPS, and raw TCP for malformed answers.
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import sharp from 'sharp';

export interface TestServer {
  /** http://host:port (no trailing slash). */
  url: string;
  host: string;
  port: number;
  /** Request paths received, in order (HTTP servers only). */
  hits: string[];
  /** TCP connections accepted. */
  connections: number;
  /** TCP connections closed since (by either side): what came over one is final once it is counted here. */
  closed: number;
  /** Bytes received over all connections (raw servers only). */
  bytesReceived: number;
  close(): Promise<void>;
}

function listen(server: net.Server, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => resolve((server.address() as net.AddressInfo).port));
  });
}

function track(server: net.Server, state: TestServer): Set<net.Socket> {
  const sockets = new Set<net.Socket>();
  server.on('connection', (socket: net.Socket) => {
    state.connections++;
    sockets.add(socket);
    socket.on('close', () => {
      sockets.delete(socket);
      state.closed++;
    });
  });
  return sockets;
}

/** An HTTP (or, with `tls`, HTTPS) server on `host` (any of 127/8 works on Linux). */
export async function serveHttp(
  handler: (req: http.IncomingMessage, res: http.ServerResponse) => void,
  options: { host?: string; tls?: { key: string; cert: string } } = {},
): Promise<TestServer> {
  const host = options.host ?? '127.0.0.1';
  const state: TestServer = { url: '', host, port: 0, hits: [], connections: 0, closed: 0, bytesReceived: 0, close: async () => {} };
  const server = options.tls ? https.createServer(options.tls) : http.createServer();
  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    state.hits.push(req.url ?? '');
    handler(req, res);
  });
  const sockets = track(server, state);
  state.port = await listen(server, host);
  state.url = `${options.tls ? 'https' : 'http'}://${host}:${state.port}`;
  state.close = () =>
    new Promise((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    });
  return state;
}

/** A TCP server that answers each connection by hand (lying headers, endless bodies, silence). */
export async function serveRaw(onSocket: (socket: net.Socket) => void, host = '127.0.0.1'): Promise<TestServer> {
  const state: TestServer = { url: '', host, port: 0, hits: [], connections: 0, closed: 0, bytesReceived: 0, close: async () => {} };
  const server = net.createServer((socket) => {
    socket.on('data', (chunk) => (state.bytesReceived += chunk.length));
    socket.on('error', () => {});
    onSocket(socket);
  });
  const sockets = track(server, state);
  state.port = await listen(server, host);
  state.url = `http://${host}:${state.port}`;
  state.close = () =>
    new Promise((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    });
  return state;
}

/** A small image generated with sharp: a diagonal gradient (so images of different colours hash differently). */
export async function makeImage(
  format: 'png' | 'jpeg' | 'webp' | 'gif',
  width = 40,
  height = 30,
  rgb: [number, number, number] = [200, 40, 40],
): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const shade = (x + y) / (width + height);
      for (let c = 0; c < 3; c++) pixels[(y * width + x) * 3 + c] = Math.round(rgb[c] * (0.3 + 0.7 * shade));
    }
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    [format]()
    .toBuffer();
}

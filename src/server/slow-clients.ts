// Limits on slow clients, so that a client dribbling a request cannot hold a connection for long:
//   - the request line and headers must arrive within HTTP_HEADERS_TIMEOUT_SECONDS (Node's headersTimeout, checked four
//     times per period rather than Node's default every 30 s); a silent new connection counts as slow headers;
//   - an idle kept-alive connection is closed after HTTP_KEEP_ALIVE_TIMEOUT_SECONDS;
//   - a body must keep arriving at HTTP_BODY_MIN_BYTES_PER_SECOND, measured over windows of HTTP_BODY_RATE_WINDOW_SECONDS
//     (BodyRateWatchdog below). A minimum rate, not a total: a 200 MB CSV upload may take as long as it needs as long
//     as it keeps coming.
// Each refusal is a 408 and a closed connection. docs/configuration.md lists the settings.
import type { FastifyBaseLogger, FastifyServerOptions } from 'fastify';
import type { IncomingMessage, ServerOptions, ServerResponse } from 'node:http';
import { Socket } from 'node:net';

export interface SlowClientLimits {
  httpHeadersTimeoutSeconds: number;
  httpKeepAliveTimeoutSeconds: number;
  httpBodyMinBytesPerSecond: number;
  httpBodyRateWindowSeconds: number;
}

/** The checks run this often (at least four times per period), never more than every 50 ms nor less than every 1 s. */
const checkEveryMs = (periodMs: number) => Math.min(1_000, Math.max(50, Math.floor(periodMs / 4)));

/**
 * Fastify's server options for these limits. Node's requestTimeout (a total for headers and body) stays off: the body has
 * its minimum rate instead, and a total short enough to matter would cut large uploads.
 */
export function slowClientServerOptions(limits: SlowClientLimits): {
  http: ServerOptions;
  keepAliveTimeout: number;
  requestTimeout: number;
  connectionTimeout: number;
  clientErrorHandler: NonNullable<FastifyServerOptions['clientErrorHandler']>;
} {
  const headersTimeout = limits.httpHeadersTimeoutSeconds * 1000;
  return {
    http: { headersTimeout, requestTimeout: 0, connectionsCheckingInterval: checkEveryMs(headersTimeout) },
    keepAliveTimeout: limits.httpKeepAliveTimeoutSeconds * 1000,
    requestTimeout: 0,
    // No idle timeout on the socket while a request is handled: a push or an export may work for a while before its
    // first byte, and the limits above already bound what the client controls.
    connectionTimeout: 0,
    clientErrorHandler: answerClientError,
  };
}

const STATUS_TEXT: Record<number, string> = { 400: 'Bad Request', 408: 'Request Timeout', 431: 'Request Header Fields Too Large' };

/**
 * Answers on the raw socket and closes it: for requests Node refused before Fastify saw them (slow or malformed headers)
 * and for bodies the watchdog stops. Fastify's own answer, with the headers every answer carries (nosniff, no-store).
 * Nothing is written when an answer to this connection has already begun.
 */
export function writeAndClose(socket: Socket, status: number, message: string, answerStarted = false): void {
  if (!socket.destroyed && socket.writable && !answerStarted) {
    const body = JSON.stringify({ error: STATUS_TEXT[status], message, statusCode: status });
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_TEXT[status]}\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nCache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

/** Fastify's clientErrorHandler: Node's refusals of a request before it reached Fastify (its headers timeout among them). */
function answerClientError(err: Error & { code?: string }, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') writeAndClose(socket, 408, 'The request headers did not arrive in time');
  else if (err.code === 'HPE_HEADER_OVERFLOW') writeAndClose(socket, 431, 'The request headers are too large');
  else writeAndClose(socket, 400, 'The request could not be read');
}

interface Watched {
  req: IncomingMessage;
  res: ServerResponse;
  socket: Socket;
  /** socket.bytesRead when the current window began. */
  windowStartBytes: number;
  /** How long, in this window, the server has been waiting for the client's bytes. */
  waitedMs: number;
}

/**
 * The body's minimum rate. A watched request's body must bring at least `minBytesPerSecond × windowSeconds` bytes in
 * every window of `windowSeconds` during which the server waited for it; else the answer is 408 and the connection is
 * closed. Time when the server is the slow side — the body's bytes wait unread in the request's buffer while a hook still
 * runs or a handler writes to disk, so Node has stopped reading the socket — is not counted against the client. Bytes are
 * read from the socket's counter, never by listening to the body (which would start the stream early).
 */
export class BodyRateWatchdog {
  private readonly watched = new Set<Watched>();
  private readonly windowMs: number;
  private readonly minBytesPerWindow: number;
  private readonly tickMs: number;
  private timer: NodeJS.Timeout | null = null;
  private lastTick = 0;

  constructor(
    limits: Pick<SlowClientLimits, 'httpBodyMinBytesPerSecond' | 'httpBodyRateWindowSeconds'>,
    private readonly log: FastifyBaseLogger,
  ) {
    this.windowMs = limits.httpBodyRateWindowSeconds * 1000;
    this.minBytesPerWindow = limits.httpBodyMinBytesPerSecond * limits.httpBodyRateWindowSeconds;
    this.tickMs = checkEveryMs(this.windowMs);
  }

  /** Watches `req`'s body until it has all arrived or the connection closes; requests without a body are left alone. */
  watch(req: IncomingMessage, res: ServerResponse): void {
    const socket = req.socket;
    // inject() requests have no real socket; a body already complete needs no watching.
    if (!(socket instanceof Socket) || socket.destroyed || req.complete) return;
    if (req.headers['transfer-encoding'] === undefined && !(Number(req.headers['content-length'] ?? 0) > 0)) return;
    this.watched.add({ req, res, socket, windowStartBytes: socket.bytesRead, waitedMs: 0 });
    if (this.timer === null) {
      this.lastTick = Date.now();
      this.timer = setInterval(() => this.tick(), this.tickMs);
      this.timer.unref();
    }
  }

  close(): void {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    this.watched.clear();
  }

  private tick(): void {
    const now = Date.now();
    const elapsed = now - this.lastTick;
    this.lastTick = now;
    for (const w of this.watched) {
      if (w.req.complete || w.socket.destroyed) {
        this.watched.delete(w);
        continue;
      }
      // Bytes waiting in the request's buffer: the server is behind, not the client.
      if (w.req.readableLength === 0) w.waitedMs += elapsed;
      if (w.waitedMs < this.windowMs) continue;
      const received = w.socket.bytesRead - w.windowStartBytes;
      if (received >= this.minBytesPerWindow) {
        w.windowStartBytes = w.socket.bytesRead;
        w.waitedMs = 0;
        continue;
      }
      this.watched.delete(w);
      const rate = Math.round((received * 1000) / w.waitedMs);
      this.log.info(
        { ip: w.socket.remoteAddress, method: w.req.method, url: w.req.url?.split('?')[0], bytesPerSecond: rate },
        'request body too slow: connection closed',
      );
      writeAndClose(
        w.socket,
        408,
        `The request body arrived at ${rate} bytes/s, below the minimum of ${this.minBytesPerWindow / (this.windowMs / 1000)} bytes/s`,
        w.res.headersSent,
      );
    }
    if (this.watched.size === 0 && this.timer !== null) {
      clearInterval(this.timer);
      this.timer = null;
    }
  }
}

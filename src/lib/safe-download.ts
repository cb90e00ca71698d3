// Downloads a file from a URL a client gave us, on the assumption that the URL is hostile:
// - http and https only, at every hop;
// - every address is checked against an AddressPolicy (default: public addresses only) three times over: an IP literal
//   before connecting, every DNS answer before it is used, and the address the socket actually connected to — before
//   a single byte (request line or TLS hello) is sent. DNS rebinding cannot slip between the check and the connection;
//   a kept-alive connection is reused only for the host and port it was opened (and checked) for;
// - a size limit enforced while streaming (Content-Length is only an early warning: absent or lying, the count decides);
// - one overall deadline for the whole download, redirects included;
// - at most N redirects, each re-checked like the first URL.
// Each refusal is a DownloadError whose message names the rule; callers prefix it with the field name. A refused address
// is an AddressRefusedError, which names the range but never the address a host name resolved to.
import dns from 'node:dns';
import type { IncomingMessage } from 'node:http';
import net from 'node:net';
import tls from 'node:tls';
import { publicAddressesOnly, type AddressPolicy } from './address-policy.js';
import { keepAliveAgents, keepAliveGet, type Agents } from './keep-alive.js';

export class DownloadError extends Error {
  override name = 'DownloadError';
}

/**
 * The address policy refused where a URL leads. The message names the rule and the range (`loopback`, `private
 * network`, `link-local`…), never the address a host name resolved to: that would tell a caller about the server's own
 * DNS. `via`: the URL's host is an IP literal, a host name whose every answer was refused, or the socket connected to
 * a refused address (a resolver that lied).
 */
export class AddressRefusedError extends DownloadError {
  override name = 'AddressRefusedError';
  constructor(
    readonly range: string,
    readonly via: 'address' | 'name' | 'connection',
  ) {
    super(
      via === 'address'
        ? `the host is not a public address (${range})`
        : via === 'name'
          ? `the host name resolves to a non-public address (${range})`
          : `the connection reached a non-public address (${range})`,
    );
  }
}

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Host name → addresses. The answers are always filtered through the address policy. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: Resolver = (hostname) => dns.promises.lookup(hostname, { all: true, verbatim: true });

export interface SafeDownloadOptions {
  /** Which addresses may be reached; default public addresses only. */
  addressPolicy?: AddressPolicy;
  /** DNS resolution; default the system resolver (dns.lookup). */
  resolve?: Resolver;
  /** Largest accepted body in bytes; default 20 MB. */
  maxBytes?: number;
  /** Deadline for the whole download, redirects included; default 10 s. */
  timeoutMs?: number;
  /** Redirects followed at most; default 3. */
  maxRedirects?: number;
  /** Extra trusted CA certificates for https (a test server's self-signed certificate). */
  ca?: string | Buffer;
  userAgent?: string;
}

export interface Download {
  bytes: Buffer;
  /** The URL the bytes came from, after redirects. */
  url: string;
  contentType: string | null;
}

export const DEFAULT_MAX_BYTES = 20 * 1024 * 1024;
export const DEFAULT_TIMEOUT_MS = 10_000;
export const DEFAULT_MAX_REDIRECTS = 3;

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** 20971520 → "20 MB", 1536 → "1.5 KB". */
export function formatBytes(n: number): string {
  if (n >= 1024 * 1024) return `${+(n / (1024 * 1024)).toFixed(2)} MB`;
  if (n >= 1024) return `${+(n / 1024).toFixed(2)} KB`;
  return `${n} bytes`;
}

const formatSeconds = (ms: number) => `${+(ms / 1000).toFixed(3)} s`;

/** A net.LookupFunction that resolves through `resolve` and passes on only the addresses the policy allows. */
export function filteredLookup(policy: AddressPolicy, resolve: Resolver): net.LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname).then(
      (answers) => {
        const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : options.family;
        const candidates = answers.filter((a) => !family || a.family === family);
        const allowed = candidates.filter((a) => policy(a.address) === null);
        if (allowed.length === 0) {
          const first = candidates[0];
          const err = first ? new AddressRefusedError(policy(first.address) ?? 'refused', 'name') : new DownloadError(`host ${hostname} could not be resolved`);
          callback(err as NodeJS.ErrnoException, '', 4);
        } else if (options.all) {
          callback(null, allowed);
        } else {
          callback(null, allowed[0].address, allowed[0].family);
        }
      },
      (err: NodeJS.ErrnoException) => callback(err, '', 4),
    );
  };
}

export interface ConnectTarget {
  host: string;
  port: number;
  policy: AddressPolicy;
  lookup: net.LookupFunction;
  signal?: AbortSignal;
}

/**
 * Opens a TCP connection and resolves only once the address actually connected to passes the policy; nothing has been
 * written to the socket by then. An IP literal is checked before connecting (no connection attempt, so refused
 * addresses cannot be probed for open ports); a host name goes through `lookup`.
 */
export function connectChecked(target: ConnectTarget): Promise<net.Socket> {
  const host = target.host.replace(/^\[(.*)\]$/, '$1');
  if (net.isIP(host)) {
    const reason = target.policy(host);
    if (reason !== null) return Promise.reject(new AddressRefusedError(reason, 'address'));
  }
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host, port: target.port, lookup: target.lookup });
    const onAbort = () => socket.destroy(target.signal?.reason instanceof Error ? target.signal.reason : new DownloadError('aborted'));
    target.signal?.addEventListener('abort', onAbort, { once: true });
    const settle = () => target.signal?.removeEventListener('abort', onAbort);
    socket.once('error', (err) => {
      settle();
      reject(err);
    });
    socket.once('connect', () => {
      settle();
      const address = socket.remoteAddress ?? '';
      const reason = target.policy(address);
      if (reason !== null) {
        socket.destroy();
        reject(new AddressRefusedError(reason, 'connection'));
        return;
      }
      // The 'error' listener stays: a late error then settles nothing, and the HTTP client adds its own before any I/O.
      resolve(socket);
    });
  });
}

/**
 * Keep-alive agents whose every new connection goes through connectChecked: the address it connected to passes
 * `policy` before a byte is sent (a reused socket passed it when it opened). `lookup` resolves host names.
 */
export function checkedAgents(policy: AddressPolicy, lookup: net.LookupFunction, tlsOptions: { ca?: string | Buffer } = {}): Agents {
  const agents = keepAliveAgents();
  const connect =
    (secure: boolean) =>
    (options: { host?: string | null; port?: number | string | null; servername?: string }, oncreate: (err: Error | null, socket?: net.Socket) => void) => {
      const host = String(options.host ?? 'localhost').replace(/^\[(.*)\]$/, '$1');
      const port = Number(options.port) || (secure ? 443 : 80);
      connectChecked({ host, port, policy, lookup }).then(
        (socket) => {
          if (!secure) return oncreate(null, socket);
          oncreate(null, tls.connect({ socket, host, servername: net.isIP(host) ? undefined : host, ALPNProtocols: ['http/1.1'], ca: tlsOptions.ca }));
        },
        (err: Error) => oncreate(err),
      );
      return undefined;
    };
  // Agent#createConnection may hand its socket to the callback instead of returning it (node:http Agent docs).
  (agents.http as unknown as { createConnection: unknown }).createConnection = connect(false);
  (agents.https as unknown as { createConnection: unknown }).createConnection = connect(true);
  return agents;
}

/** The message of a low-level failure, naming what went wrong without internals. */
function describe(err: unknown, url: URL): DownloadError {
  if (err instanceof DownloadError) return err;
  const e = err as NodeJS.ErrnoException & { code?: string };
  const code = e?.code ?? '';
  const where = url.host;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'ENODATA') return new DownloadError(`host ${url.hostname} could not be resolved`);
  if (code === 'ECONNREFUSED') return new DownloadError(`could not connect to ${where} (connection refused)`);
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return new DownloadError(`could not connect to ${where} (unreachable)`);
  if (code === 'ECONNRESET' || code === 'EPIPE' || e?.message === 'socket hang up' || e?.message === 'aborted') {
    return new DownloadError(`the connection to ${where} was closed before the file arrived`);
  }
  if (code.startsWith('HPE_')) return new DownloadError(`the server at ${where} did not answer valid HTTP`);
  if (/CERT|SELF_SIGNED|TLS|SSL|ALTNAME/i.test(code) || /certificate|ssl|tls/i.test(e?.message ?? '')) {
    return new DownloadError(`the TLS connection to ${where} failed${code ? ` (${code})` : ''}`);
  }
  return new DownloadError(`the download from ${where} failed${code ? ` (${code})` : ''}`);
}

function checkScheme(url: URL, afterRedirect: boolean): void {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new DownloadError(`only http and https URLs can be fetched, got ${url.protocol}${afterRedirect ? ' (in a redirect)' : ''}`);
  }
}

export class SafeDownloader {
  readonly policy: AddressPolicy;
  readonly maxBytes: number;
  readonly timeoutMs: number;
  readonly maxRedirects: number;
  private readonly lookup: net.LookupFunction;
  /** Keep-alive connections, each checked against the policy when it opens (lib/keep-alive.ts). */
  private readonly agents: Agents;
  private readonly userAgent: string;

  constructor(options: SafeDownloadOptions = {}) {
    this.policy = options.addressPolicy ?? publicAddressesOnly;
    this.maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.maxRedirects = options.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
    this.lookup = filteredLookup(this.policy, options.resolve ?? systemResolver);
    this.userAgent = options.userAgent ?? 'Pimbridge-media/0.1';
    this.agents = checkedAgents(this.policy, this.lookup, { ca: options.ca });
  }

  /** Downloads `rawUrl`; throws DownloadError naming the rule that refused it. */
  async fetch(rawUrl: string): Promise<Download> {
    let url: URL;
    try {
      url = new URL(rawUrl);
    } catch {
      throw new DownloadError('is not a valid URL');
    }
    checkScheme(url, false);

    const deadline = new AbortController();
    const timeoutError = new DownloadError(`timed out after ${formatSeconds(this.timeoutMs)}`);
    const timer = setTimeout(() => deadline.abort(timeoutError), this.timeoutMs);
    try {
      for (let redirects = 0; ; redirects++) {
        const res = await this.request(url, deadline.signal);
        const status = res.statusCode ?? 0;
        if (REDIRECTS.has(status)) {
          res.destroy();
          const location = res.headers.location;
          if (!location) throw new DownloadError(`the server answered ${status} without a Location`);
          if (redirects >= this.maxRedirects) throw new DownloadError(`more than ${this.maxRedirects} redirects`);
          try {
            url = new URL(location, url);
          } catch {
            throw new DownloadError('a redirect pointed to an invalid URL');
          }
          checkScheme(url, true);
          continue;
        }
        if (status < 200 || status > 299) {
          res.destroy();
          throw new DownloadError(`the server answered ${status}`);
        }
        const bytes = await this.readBody(res, url, deadline.signal);
        return { bytes, url: url.toString(), contentType: res.headers['content-type'] ?? null };
      }
    } catch (err) {
      throw deadline.signal.aborted ? timeoutError : describe(err, url);
    } finally {
      clearTimeout(timer);
    }
  }

  private request(url: URL, signal: AbortSignal): Promise<IncomingMessage> {
    const headers = { accept: 'image/jpeg, image/png, image/webp, image/gif, */*;q=0.1', 'accept-encoding': 'identity', 'user-agent': this.userAgent };
    return keepAliveGet(url, this.agents, headers, signal);
  }

  private readBody(res: IncomingMessage, url: URL, signal: AbortSignal): Promise<Buffer> {
    const tooLarge = () => new DownloadError(`download exceeded ${formatBytes(this.maxBytes)}`);
    const declared = Number(res.headers['content-length']);
    if (Number.isFinite(declared) && declared > this.maxBytes) {
      res.destroy();
      return Promise.reject(tooLarge());
    }
    return new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      let size = 0;
      let done = false;
      const fail = (err: unknown) => {
        if (done) return;
        done = true;
        res.destroy();
        reject(err);
      };
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > this.maxBytes) return fail(tooLarge());
        chunks.push(chunk);
      });
      res.once('end', () => {
        if (done) return;
        done = true;
        resolve(Buffer.concat(chunks, size));
      });
      res.on('error', (err) => fail(signal.aborted ? signal.reason : describe(err, url)));
      res.once('aborted', () => fail(new DownloadError(`the connection to ${url.host} was closed before the file arrived`)));
      res.once('close', () => {
        if (!res.complete) fail(signal.aborted ? signal.reason : new DownloadError(`the connection to ${url.host} was closed before the file arrived`));
      });
    });
  }
}

// The two plain-HTTP legs of a bulk upsert: posting the JSONL to a staged-upload target (multipart/form-data, as the
// storage services behind Shopify take it) and streaming the result file, line by line. Both URLs come from the
// storefront's answers, so they are treated like any server-side fetch of a given URL: http(s) only, and only public
// addresses — except the host of the shop's own apiBaseUrl (the sandbox, a test server), which the shop's settings
// already trust; a URL under the apiBaseUrl's path is sent to its origin, like the GraphQL calls. Every address is
// checked where the socket connects (lib/safe-download.ts), so DNS cannot rebind.
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import net from 'node:net';
import tls from 'node:tls';
import { anyAddress, publicAddressesOnly, type AddressPolicy } from '../../lib/address-policy.js';
import { AddressRefusedError, connectChecked, filteredLookup, systemResolver, type Resolver } from '../../lib/safe-download.js';
import { StorefrontError } from '../port/errors.js';

export interface TransferOptions {
  /** The shop's apiBaseUrl: its host may be private (the sandbox on loopback). */
  apiBaseUrl: string | null;
  timeoutMs: number;
  resolve?: Resolver;
  /** readJsonl: the longest line accepted; default BULK_RESULT_MAX_LINE_BYTES. */
  maxLineBytes?: number;
}

/**
 * The longest line of a bulk result file that is read. A productSet line with 2,048 variants of 255-character SKUs is
 * about 2.5 MB; a longer line is not buffered but fails the read (a broken or hostile result file).
 */
export const BULK_RESULT_MAX_LINE_BYTES = 8 * 1024 * 1024;

/** A result line over the cap: the operation's result cannot be read, so the operation counts as failed. */
export class ResultLineTooLong extends StorefrontError {
  constructor(host: string, maxLineBytes: number) {
    super('invalid_response', `the bulk result at ${host} has a line longer than ${maxLineBytes} bytes`);
  }
}

/** Which addresses a URL handed out by the storefront may reach. */
export function transferPolicy(url: URL, apiBaseUrl: string | null): AddressPolicy {
  if (apiBaseUrl) {
    try {
      if (new URL(apiBaseUrl).host === url.host) return anyAddress;
    } catch {
      // an unparsable base URL trusts nothing
    }
  }
  return publicAddressesOnly;
}

/**
 * The URL to call. With an apiBaseUrl, a URL under its path (the sandbox's own targets, built from the host it was
 * called on, which a proxy in between may have changed) goes to the apiBaseUrl's origin, as every GraphQL call does.
 */
function checkedUrl(raw: string | null | undefined, what: string, apiBaseUrl: string | null): URL {
  let url: URL;
  try {
    url = new URL(raw ?? '');
  } catch {
    throw new StorefrontError('invalid_response', `the storefront gave an invalid ${what} URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new StorefrontError('invalid_response', `the storefront gave a ${url.protocol} ${what} URL (only http and https are followed)`);
  if (apiBaseUrl) {
    const base = new URL(apiBaseUrl);
    const prefix = base.pathname.replace(/\/+$/, '');
    if (prefix && url.pathname.startsWith(`${prefix}/`)) return new URL(`${base.origin}${url.pathname}${url.search}`);
  }
  return url;
}

/** One request through an address-checked connection; the answer's body is left to the caller. */
function request(
  url: URL,
  options: TransferOptions,
  init: { method: 'GET' | 'POST'; headers: Record<string, string>; body?: Buffer },
  signal: AbortSignal,
): Promise<IncomingMessage> {
  const policy = transferPolicy(url, options.apiBaseUrl);
  const lookup = filteredLookup(policy, options.resolve ?? systemResolver);
  const secure = url.protocol === 'https:';
  const port = Number(url.port) || (secure ? 443 : 80);
  const hostname = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const createConnection = (_options: unknown, oncreate: (err: Error | null, socket?: net.Socket) => void) => {
    connectChecked({ host: hostname, port, policy, lookup, signal }).then(
      (socket) =>
        oncreate(
          null,
          secure ? tls.connect({ socket, host: hostname, servername: net.isIP(hostname) ? undefined : hostname, ALPNProtocols: ['http/1.1'] }) : socket,
        ),
      (err: Error) => oncreate(err),
    );
    return undefined;
  };
  return new Promise((resolve, reject) => {
    const req = (secure ? https : http).request(url, {
      method: init.method,
      headers: { 'user-agent': 'Pimbridge-bulk/0.1', ...init.headers, ...(init.body ? { 'content-length': String(init.body.length) } : {}) },
      createConnection: createConnection as never,
      signal,
    });
    req.once('response', resolve);
    req.on('error', reject);
    req.end(init.body);
  });
}

function failure(err: unknown, url: URL, signal: AbortSignal, timeoutMs: number): StorefrontError {
  if (err instanceof StorefrontError) return err;
  if (signal.aborted) return new StorefrontError('unavailable', `${url.host} did not finish within ${timeoutMs} ms`);
  // A refused address is the storefront pointing us where we do not go: not worth a retry.
  if (err instanceof AddressRefusedError) return new StorefrontError('invalid_response', `refused ${url.host}: ${err.message}`);
  return new StorefrontError('unavailable', `${url.host} could not be reached: ${(err as Error).message}`);
}

/** A multipart/form-data body: the fields in order, then the file (storage services ignore fields after it). */
export function multipartBody(
  fields: { name: string; value: string }[],
  file: { filename: string; contentType: string; content: Buffer },
): { body: Buffer; contentType: string } {
  const boundary = `----pimbridge${Math.random().toString(16).slice(2)}${Date.now().toString(16)}`;
  const quote = (s: string) => s.replace(/["\r\n]/g, (c) => encodeURIComponent(c));
  const head = fields.map((f) => `--${boundary}\r\nContent-Disposition: form-data; name="${quote(f.name)}"\r\n\r\n${f.value}\r\n`).join('');
  const fileHead = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${quote(file.filename)}"\r\nContent-Type: ${file.contentType}\r\n\r\n`;
  return {
    body: Buffer.concat([Buffer.from(head + fileHead), file.content, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

/** Posts the file to a staged-upload target; a 4xx is the storage service's refusal (its XML Code in the message). */
export async function uploadStaged(
  rawUrl: string | null,
  fields: { name: string; value: string }[],
  file: { filename: string; contentType: string; content: Buffer },
  options: TransferOptions,
): Promise<void> {
  const url = checkedUrl(rawUrl, 'staged upload', options.apiBaseUrl);
  const { body, contentType } = multipartBody(fields, file);
  const signal = AbortSignal.timeout(options.timeoutMs);
  let res: IncomingMessage;
  let text = '';
  try {
    res = await request(url, options, { method: 'POST', headers: { 'content-type': contentType }, body }, signal);
    res.setEncoding('utf8');
    for await (const chunk of res) if (text.length < 4096) text += chunk as string;
  } catch (err) {
    throw failure(err, url, signal, options.timeoutMs);
  }
  const status = res.statusCode ?? 0;
  if (status >= 200 && status < 300) return;
  const code = /<Code>([^<]*)<\/Code>/.exec(text)?.[1];
  throw new StorefrontError(
    status >= 500 ? 'unavailable' : 'invalid_response',
    `the staged upload to ${url.host} answered HTTP ${status}${code ? ` (${code})` : ''}`,
  );
}

/** Streams a JSONL file, calling `onLine` with each parsed line (blank lines skipped); a line over the cap fails it. */
export async function readJsonl(rawUrl: string | null, onLine: (value: unknown) => void, options: TransferOptions): Promise<void> {
  const url = checkedUrl(rawUrl, 'bulk result', options.apiBaseUrl);
  const signal = AbortSignal.timeout(options.timeoutMs);
  try {
    const res = await request(url, options, { method: 'GET', headers: { accept: 'application/jsonl, */*;q=0.1', 'accept-encoding': 'identity' } }, signal);
    const status = res.statusCode ?? 0;
    if (status < 200 || status > 299) {
      res.destroy();
      throw new StorefrontError(status >= 500 ? 'unavailable' : 'invalid_response', `the bulk result at ${url.host} answered HTTP ${status}`);
    }
    const maxLineBytes = options.maxLineBytes ?? BULK_RESULT_MAX_LINE_BYTES;
    const tooLong = () => new ResultLineTooLong(url.host, maxLineBytes);
    const parse = (line: string) => {
      if (line.trim() === '') return;
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        throw new StorefrontError('invalid_response', `the bulk result at ${url.host} is not JSONL`);
      }
      onLine(value);
    };
    // Split on \n by hand (readline buffers a line without bound); \r is JSON whitespace, so CRLF parses too.
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    for await (const chunk of res as AsyncIterable<Buffer>) {
      let start = 0;
      for (let end = chunk.indexOf(0x0a); end !== -1; end = chunk.indexOf(0x0a, start)) {
        if (pendingBytes + end - start > maxLineBytes) throw tooLong();
        parse(Buffer.concat([...pending, chunk.subarray(start, end)]).toString('utf8'));
        pending = [];
        pendingBytes = 0;
        start = end + 1;
      }
      if (start < chunk.length) {
        pendingBytes += chunk.length - start;
        if (pendingBytes > maxLineBytes) throw tooLong();
        pending.push(chunk.subarray(start));
      }
    }
    if (!res.complete) throw new StorefrontError('unavailable', `the bulk result from ${url.host} was cut off`);
    parse(Buffer.concat(pending).toString('utf8'));
  } catch (err) {
    throw failure(err, url, signal, options.timeoutMs);
  }
}

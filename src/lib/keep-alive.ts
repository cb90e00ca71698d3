// Keep-alive connections for outbound HTTP (the bridge's PIM reads and GraphQL calls, media downloads). A push makes
// two or three calls per product: a new TCP connection for each (connect, accept, close on both ends) and undici's
// fetch (web streams, ~1 ms of CPU per call measured here) cost more than the call itself on a loaded machine.
import http, { type IncomingHttpHeaders, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import https from 'node:https';

/**
 * An idle socket is closed after this long: below the 5 s keep-alive timeout of Node's own servers (Node also honours a
 * shorter `Keep-Alive: timeout` hint), so a server does not close a socket just as we send on it.
 */
export const IDLE_SOCKET_MS = 4_000;
/** Connections per host and port at most (a push has 8 products in flight, each with one call at a time). */
const MAX_SOCKETS = 32;

export interface Agents {
  http: http.Agent;
  https: https.Agent;
}

/** Plain keep-alive agents (no address rule). */
export function keepAliveAgents(): Agents {
  const options = { keepAlive: true, maxSockets: MAX_SOCKETS, timeout: IDLE_SOCKET_MS };
  return { http: new http.Agent(options), https: new https.Agent(options) };
}

export function agentFor(agents: Agents, url: URL): http.Agent {
  return url.protocol === 'https:' ? agents.https : agents.http;
}

/**
 * A GET through `agents`, resolved with the response (its body unread). A GET sent on a kept-alive socket that the
 * server closed meanwhile is sent again, once, on a new connection (node:http's `request.reusedSocket` advice).
 */
export function keepAliveGet(url: URL, agents: Agents, headers: OutgoingHttpHeaders, signal: AbortSignal): Promise<IncomingMessage> {
  const send = () =>
    new Promise<IncomingMessage>((resolve, reject) => {
      const req = (url.protocol === 'https:' ? https : http).request(url, { method: 'GET', headers, agent: agentFor(agents, url), signal });
      req.once('response', resolve);
      req.on('error', (err: NodeJS.ErrnoException) => {
        if (req.reusedSocket && !signal.aborted && (err.code === 'ECONNRESET' || err.code === 'EPIPE')) resolve(send());
        else reject(err);
      });
      req.end();
    });
  return send();
}

/** Statuses whose Response must have a null body (the Fetch standard). */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/**
 * A `fetch` over node:http with these agents, for JSON APIs: the answer is read whole, then handed over as a Response.
 * Honours `method`, `headers`, a string or buffer `body` and `signal`; follows no redirect (Shopify's Admin API sends none).
 */
export function agentFetch(agents: Agents): typeof fetch {
  return (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const headers: Record<string, string> = {};
    new Headers(init?.headers).forEach((value, name) => {
      headers[name] = value;
    });
    const body = init?.body;
    if (body != null && typeof body !== 'string' && !(body instanceof Uint8Array))
      return Promise.reject(new TypeError('agentFetch sends string or byte bodies only'));
    return new Promise<Response>((resolve, reject) => {
      const req = (url.protocol === 'https:' ? https : http).request(url, {
        method: init?.method ?? 'GET',
        headers,
        agent: agentFor(agents, url),
        signal: init?.signal ?? undefined,
      });
      req.once('error', reject);
      req.once('response', (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.once('error', reject);
        res.once('end', () => {
          const status = res.statusCode ?? 0;
          try {
            resolve(
              new Response(NULL_BODY.has(status) ? null : Buffer.concat(chunks), { status, statusText: res.statusMessage, headers: headersOf(res.headers) }),
            );
          } catch (err) {
            reject(err); // a status outside 200–599, a header the Fetch standard refuses
          }
        });
        res.once('close', () => {
          if (!res.complete) reject(new Error('the connection was closed before the answer arrived'));
        });
      });
      req.end(body ?? undefined);
    });
  };
}

function headersOf(raw: IncomingHttpHeaders): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else if (value !== undefined) headers.set(name, value);
  }
  return headers;
}

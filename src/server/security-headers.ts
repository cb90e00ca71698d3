// The headers every answer carries (helmet, registered first on the root so that refusals by later hooks carry them
// too): nosniff, no framing (X-Frame-Options DENY and frame-ancestors 'none'), no referrer, a content security policy,
// and `Cache-Control: no-store` unless the route says how its answer may be cached. The policy depends on what answers:
//   - API answers, CSV and files: nothing may load or run (default-src 'none');
//   - the console (console-static.ts) and /docs (swagger-ui): the scripts, styles and requests each page needs.
// HSTS is left to the https proxy in front (the server runs over plain http on a laptop as often as behind https).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

type Csp = Exclude<HelmetOptions['contentSecurityPolicy'], boolean | undefined>;
/** Header names and values, set in this order. */
export type SecurityHeaders = readonly (readonly [string, string])[];

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The security headers of this route's answers when they are not the API's (the console, /docs, the sandbox's CDN). */
    securityHeaders?: SecurityHeaders;
  }
}

/** For answers that are not pages. An inline style attribute is allowed for the few small HTML refusals. */
const API_CSP: Csp = {
  useDefaults: false,
  directives: {
    defaultSrc: ["'none'"],
    styleSrc: ["'unsafe-inline'"],
    baseUri: ["'none'"],
    formAction: ["'none'"],
    frameAncestors: ["'none'"],
  },
};

/**
 * /docs: swagger-ui's page loads its bundle, stylesheet and initializer from /docs/static (no inline script: @fastify/swagger-ui
 * 5 ships none), fetches the OpenAPI document and sends "Try it out" requests to this origin, and draws icons from data:
 * URLs. It applies inline styles as it renders ('self' alone blocks them, seen in Chromium), hence 'unsafe-inline' for
 * styles only. console/test/browser.test.ts renders it and tries a route under this policy.
 */
export const DOCS_CSP: Csp = {
  useDefaults: false,
  directives: {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'"],
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: ["'self'", 'data:'],
    fontSrc: ["'self'", 'data:'],
    connectSrc: ["'self'"],
    objectSrc: ["'none'"],
    baseUri: ["'none'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
  },
};

/**
 * What an answer that no hook saw carries (the router's own refusals, sent before any hook runs): the headers helmet
 * gives API answers, and no-store.
 */
export const BARE_ANSWER_HEADERS: Record<string, string> = {
  'content-security-policy': Object.entries(API_CSP.directives ?? {})
    .map(([name, values]) => `${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)} ${[values].flat().join(' ')}`)
    .join(';'),
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-resource-policy': 'same-origin',
  'cache-control': 'no-store',
};

/** The helmet settings of every answer; a route or scope changes only its content security policy (or, for the sandbox's CDN, who may load it). */
const HELMET_BASE = {
  frameguard: { action: 'deny' },
  // Product images come from the merchant's hosts, which send no CORP header.
  crossOriginEmbedderPolicy: false,
  strictTransportSecurity: false,
} as const satisfies HelmetOptions;

/**
 * The headers helmet sets with these settings, asked of helmet once. Helmet's Fastify plugin builds a new helmet (its
 * policy strings included) on every request of a route with settings of its own, and runs two hooks per request: the
 * headers are the same every time, so they are computed at start and set as they are.
 */
export function securityHeaders(csp: Csp, settings: Pick<HelmetOptions, 'crossOriginResourcePolicy'> = {}): SecurityHeaders {
  const headers: [string, string][] = [];
  const res = {
    setHeader: (name: string, value: string | number) => void headers.push([name, String(value)]),
    removeHeader: () => {},
  };
  helmet({ ...HELMET_BASE, ...settings, contentSecurityPolicy: csp })({} as IncomingMessage, res as unknown as ServerResponse, () => {});
  return headers;
}

const API_HEADERS = securityHeaders(API_CSP);
const DOCS_HEADERS = securityHeaders(DOCS_CSP);
const CDN_HEADERS = securityHeaders(API_CSP, { crossOriginResourcePolicy: { policy: 'cross-origin' } });

/**
 * Sets the security headers on every answer. Call it before any route is added: routes under `docsPrefix` get the docs'
 * policy, and the Shopify sandbox's CDN files may be loaded from other origins (as Shopify's CDN's are). The headers go
 * on the raw response, as helmet sets them, so that a route that takes the response over (hijack) carries them too.
 */
export function installSecurityHeaders(app: FastifyInstance, options: { docsPrefix: string }): void {
  app.addHook('onRoute', (route) => {
    const url = route.url ?? route.path;
    if (url === options.docsPrefix || url.startsWith(`${options.docsPrefix}/`)) route.config = { ...route.config, securityHeaders: DOCS_HEADERS };
    else if (url.startsWith('/sandbox/') && url.includes('/cdn/files/')) route.config = { ...route.config, securityHeaders: CDN_HEADERS };
  });
  app.addHook('onRequest', (req, reply, done) => {
    const res = reply.raw;
    for (const [name, value] of req.routeOptions.config?.securityHeaders ?? API_HEADERS) res.setHeader(name, value);
    done();
  });
  // Nothing is cached unless its route says so (public media, the console's hashed assets): authenticated answers —
  // PIM, connector, admin, metrics, CSV files — are never kept by a browser or a shared cache.
  app.addHook('onSend', (_req, reply, payload, done) => {
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    done(null, payload);
  });
}

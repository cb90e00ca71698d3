// The console: the built single-page app (console/dist) served at `/` with strict security headers (set on the
// whole app from helmet's settings, server/security-headers.ts; the console's routes get the content security policy below). Hashed assets are
// cached for a year; index.html is revalidated, so a new build reaches browsers at once. The console's own paths
// (`/products/12`, `/bridge/3/mappings`, …) answer index.html and the page's router shows them; every other path is
// left to the APIs' routes and their 404s, exactly as before the console existed. Assets go out as the build's brotli
// or gzip copies when the browser takes them.
import fastifyStatic from '@fastify/static';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { App } from '../http/app-type.js';
import { securityHeaders } from './security-headers.js';

/** The first segments of the console's routes (console/src/routes.tsx). */
const PAGE_ROOTS = ['sign-in', 'products', 'categories', 'attributes', 'lists', 'files', 'bridge'];

/** The console's page: its own scripts and styles only; product images from anywhere (the merchant's URLs and /media). */
const CONSOLE_CSP = {
  useDefaults: false,
  directives: {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'"],
    // React sets style attributes (a progress bar's width); no inline <style> or <script> is ever needed.
    styleSrc: ["'self'"],
    styleSrcAttr: ["'unsafe-inline'"],
    // Product images are the merchant's own URLs, anywhere on the web, and this server's /media.
    imgSrc: ["'self'", 'data:', 'https:', 'http:'],
    connectSrc: ["'self'"],
    fontSrc: ["'self'"],
    objectSrc: ["'none'"],
    baseUri: ["'none'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
  },
};

const CONSOLE_HEADERS = securityHeaders(CONSOLE_CSP);

const NOT_BUILT = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Pimbridge</title></head>
<body><h1>Pimbridge</h1><p>The console is not built. Run <code>npm run build</code> (or <code>npm start</code>, which builds it) and reload.</p>
<p>The APIs are served all the same: see <a href="/docs">/docs</a>.</p></body></html>`;

export async function consoleRoutes(
  app: App,
  options: {
    dir: string;
    /** Errors of these routes (a refused URL under an API path) in the envelope of the API the path belongs to. */
    sendError: (err: unknown, req: FastifyRequest, reply: FastifyReply) => unknown;
  },
): Promise<void> {
  app.setErrorHandler(options.sendError);
  // The security headers are set on the whole app (security-headers.ts); the console's routes, its assets included, get the page's policy.
  app.addHook('onRoute', (route) => {
    route.config = { ...route.config, securityHeaders: CONSOLE_HEADERS };
  });
  const index = path.join(options.dir, 'index.html');
  if (!existsSync(index)) {
    pageRoutes(app, async (_req, reply) => reply.code(503).type('text/html; charset=utf-8').send(NOT_BUILT));
    return;
  }
  // Vite puts every file but index.html under assets/ with a content hash in its name. Looked up per request (not listed
  // at start), so a rebuild is served without a restart.
  await app.register(fastifyStatic, {
    root: path.join(options.dir, 'assets'),
    prefix: '/assets/',
    index: false,
    // The build's .br and .gz copies (console/vite.config.ts), chosen by Accept-Encoding, with Vary: Accept-Encoding.
    preCompressed: true,
    cacheControl: false,
    // index.html (sent by the page route below through the same plugin) is revalidated on every load.
    setHeaders: (res, file) => res.header('Cache-Control', path.basename(file) === 'index.html' ? 'no-cache' : 'public, max-age=31536000, immutable'),
  });
  pageRoutes(app, async (_req, reply) => reply.sendFile('index.html', options.dir));
}

function pageRoutes(app: App, handler: (req: FastifyRequest, reply: FastifyReply) => Promise<unknown>): void {
  app.get('/', { schema: { hide: true } }, handler);
  for (const root of PAGE_ROOTS) {
    app.get(`/${root}`, { schema: { hide: true } }, handler);
    app.get(`/${root}/*`, { schema: { hide: true } }, handler);
  }
}

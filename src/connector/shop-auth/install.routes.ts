// GET /shopify/install and GET /shopify/callback: the browser's side of installing the app on a shop (shop-install.service.ts).
// Pages, not API answers: the merchant's browser is redirected to the shop's consent page and back to the console; a
// refusal is a small HTML page saying what to do. Hidden from the OpenAPI document (browsers follow them, clients do not).
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App } from '../../http/app-type.js';
import { CALLBACK_PATH, INSTALL_PATH, InstallError, type ShopInstallService } from './shop-install.service.js';

export { CALLBACK_PATH, INSTALL_PATH };

/** The cookie binding an install to the browser that started it (Lax: it must come back on Shopify's redirect). */
export const INSTALL_COOKIE = 'pimbridge_install';

export interface InstallRouteDeps {
  installs: ShopInstallService;
  /** Whether cookies are marked Secure (https). */
  secure: (req: FastifyRequest) => boolean;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function refusal(reply: FastifyReply, message: string) {
  return reply
    .code(400)
    .type('text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .send(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Pimbridge: the store was not connected</title>` +
        `<meta name="viewport" content="width=device-width, initial-scale=1"></head>` +
        `<body style="font-family: system-ui, sans-serif; max-width: 40rem; margin: 3rem auto; padding: 0 1rem">` +
        `<h1>The store was not connected</h1><p>${escapeHtml(message)}</p><p><a href="/bridge">Back to the console</a></p></body></html>`,
    );
}

const query = (req: FastifyRequest): Record<string, string> =>
  Object.fromEntries(Object.entries((req.query ?? {}) as Record<string, unknown>).filter((e): e is [string, string] => typeof e[1] === 'string'));

export function installRoutes(app: App, deps: InstallRouteDeps): void {
  app.get(INSTALL_PATH, { schema: { hide: true } }, async (req, reply) => {
    // Started from Shopify (its app URL) or a link elsewhere: the console's session cookie (SameSite=Strict) did not
    // come, so the merchant signs in first and comes back here.
    if (!req.consoleSession) return reply.redirect(`/sign-in?next=${encodeURIComponent(req.url)}`, 302);
    const shop = query(req).shop;
    if (!shop) return refusal(reply, 'Name the store to connect: /shopify/install?shop=your-store.myshopify.com');
    try {
      const { redirectUrl, browserNonce } = await deps.installs.begin(shop, req.consoleSession.organizationId);
      reply.setCookie(INSTALL_COOKIE, browserNonce, { path: '/shopify', httpOnly: true, sameSite: 'lax', secure: deps.secure(req), maxAge: 600 });
      return reply.header('cache-control', 'no-store').redirect(redirectUrl, 302);
    } catch (err) {
      if (err instanceof InstallError) return refusal(reply, err.message);
      throw err;
    }
  });

  app.get(CALLBACK_PATH, { schema: { hide: true } }, async (req, reply) => {
    const nonce = req.cookies?.[INSTALL_COOKIE];
    reply.clearCookie(INSTALL_COOKIE, { path: '/shopify' });
    try {
      const { integrationId } = await deps.installs.complete(query(req), nonce);
      return reply.header('cache-control', 'no-store').redirect(`/bridge/${integrationId}?installed=1`, 302);
    } catch (err) {
      if (err instanceof InstallError) return refusal(reply, err.message);
      throw err;
    }
  });
}

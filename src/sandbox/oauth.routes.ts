// The sandbox as each store's OAuth server (docs/sandbox/oauth.md; rules and sources in sandbox-oauth.service.ts):
//   GET  {prefix}/{domain}/admin/oauth/authorize     the consent page (or Shopify's 400 "Oauth error" page)
//   POST {prefix}/{domain}/admin/oauth/authorize     Install or Cancel: 302 to the app's redirect_uri
//   POST {prefix}/{domain}/admin/oauth/access_token  code, client credentials or refresh token → a token (JSON or form body)
// A scope of its own: it reads application/x-www-form-urlencoded bodies, and answers errors in OAuth's shape.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { consentPage, oauthErrorPage } from './oauth-pages.js';
import { CONSENT_COOKIE, CONSENT_SECONDS, type SandboxOauthService } from './sandbox-oauth.service.js';
import type { SandboxStoreService } from './sandbox-store.service.js';

/** The pages may not be framed (clickjacking), run no script, and keep no copy. */
function sendPage(reply: FastifyReply, status: number, html: string): FastifyReply {
  return reply
    .code(status)
    .type('text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('x-frame-options', 'DENY')
    .header('referrer-policy', 'no-referrer')
    .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'")
    .send(html);
}

function cookieValue(req: FastifyRequest, name: string): string | undefined {
  const header = req.headers.cookie;
  if (typeof header !== 'string') return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return decodeURIComponent(part.slice(eq + 1).trim());
  }
  return undefined;
}

function asRecord(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

export async function oauthRoutes(parent: FastifyInstance, oauth: SandboxOauthService, stores: SandboxStoreService): Promise<void> {
  await parent.register(async (scope) => {
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 64 * 1024 }, (_req, body, done) =>
      done(null, Object.fromEntries(new URLSearchParams(String(body)))),
    );
    scope.setErrorHandler((error: FastifyError, req, reply) => {
      const status = typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
      if (status === 500) req.log.error({ err: error }, 'sandbox oauth request failed');
      const description = status === 500 ? 'Internal Server Error' : status === 415 ? 'Unsupported content type' : 'The request could not be read';
      return reply
        .code(status)
        .type('application/json; charset=utf-8')
        .send({ error: status === 500 ? 'server_error' : 'invalid_request', error_description: description });
    });

    scope.get<{ Params: { domain: string }; Querystring: Record<string, unknown> }>(
      '/:domain/admin/oauth/authorize',
      { schema: { hide: true } },
      async (req, reply) => {
        const store = await stores.find(req.params.domain);
        if (!store) return sendPage(reply, 404, oauthErrorPage('There is no store at this address.'));
        const outcome = await oauth.authorize(store, asRecord(req.query));
        if (outcome.kind === 'error') return sendPage(reply, 400, oauthErrorPage(outcome.message));
        const path = `${req.url.split('?')[0]}`;
        const secure = req.protocol === 'https' ? '; Secure' : '';
        reply.header('set-cookie', `${CONSENT_COOKIE}=${outcome.binding}; Path=${path}; Max-Age=${CONSENT_SECONDS}; HttpOnly; SameSite=Strict${secure}`);
        return sendPage(
          reply,
          200,
          consentPage({ appName: outcome.appName, shopName: store.name, domain: store.domain, scopes: outcome.scopes, action: path, nonce: outcome.nonce }),
        );
      },
    );

    scope.post<{ Params: { domain: string } }>('/:domain/admin/oauth/authorize', { schema: { hide: true } }, async (req, reply) => {
      const store = await stores.find(req.params.domain);
      if (!store) return sendPage(reply, 404, oauthErrorPage('There is no store at this address.'));
      const outcome = await oauth.decide(store, asRecord(req.body), cookieValue(req, CONSENT_COOKIE));
      if (outcome.kind === 'error') return sendPage(reply, 400, oauthErrorPage(outcome.message));
      return reply
        .code(302)
        .header('cache-control', 'no-store')
        .header('referrer-policy', 'no-referrer')
        .header('set-cookie', `${CONSENT_COOKIE}=; Path=${req.url.split('?')[0]}; Max-Age=0; HttpOnly; SameSite=Strict`)
        .header('location', outcome.location)
        .send();
    });

    scope.post<{ Params: { domain: string } }>('/:domain/admin/oauth/access_token', { schema: { hide: true } }, async (req, reply) => {
      const store = await stores.find(req.params.domain);
      if (!store) return reply.code(404).type('application/json; charset=utf-8').send({ errors: 'Not Found' });
      const answer = await oauth.token(store, asRecord(req.body));
      // RFC 6749 §5.1: token answers are not cached.
      return reply
        .code(answer.status)
        .type('application/json; charset=utf-8')
        .header('cache-control', 'no-store')
        .header('pragma', 'no-cache')
        .send(answer.body);
    });
  });
}

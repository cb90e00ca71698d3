// The console's sign-in: POST /api/session (key and secret → cookie), GET /api/session (whether this cookie is signed
// in: who, and the CSRF token), DELETE /api/session (sign out). A scope of its own beside the PIM's: these routes take
// no X-API-KEY.
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { retryAfterSeconds, type RateLimiter } from '../../lib/rate-limiter.js';
import type { App } from '../../http/app-type.js';
import { IGNORED_BODY } from '../../http/route-docs.js';
import { AppError } from '../../http/errors.js';
import { pimResponses, Text } from '../pim.schemas.js';
import { ok } from '../pim.types.js';
import type { SessionService } from './session.service.js';

export const SESSION_COOKIE = 'pimbridge_session';
/** The answer to a cookie that no longer opens anything (expired, signed out, key revoked, organization inactive). */
export const SESSION_ENDED = 'The console session has ended: sign in again';

const Session = Type.Object({
  organization: Type.Object({ id: Type.Integer(), name: Type.String() }),
  csrf_token: Type.String({ description: 'send back in X-CSRF-Token on every POST, PUT, PATCH and DELETE of this session' }),
  expires_at: Type.String({ description: 'ISO 8601, UTC' }),
});

/**
 * GET /api/session's answer. "Not signed in" is an answer here, not a 401: the console asks it on every first load, and
 * a browser logs every 4xx as an error in its console.
 */
const SessionState = Type.Object({
  signed_in: Type.Boolean(),
  ended: Type.Boolean({ description: 'true when the cookie sent belonged to a session that has ended (expired, signed out, key revoked)' }),
  session: Type.Union([Session, Type.Null()]),
});

export interface SessionRouteDeps {
  sessions: SessionService;
  /** Sign-in attempts per client IP (the PIM's write limit). */
  limiter: RateLimiter;
  ttlSeconds: number;
  /** Whether the cookie is marked Secure: the request came over https (TRUST_PROXY honoured) or PUBLIC_URL is https. */
  secure: (req: FastifyRequest) => boolean;
}

/** The cookie's token, if the request carries one (parsed by @fastify/cookie). */
export function sessionToken(req: FastifyRequest): string | undefined {
  const token = req.cookies?.[SESSION_COOKIE];
  return token && /^[\w-]{43}$/.test(token) ? token : undefined;
}

/** Sets (or, with '' and 0, clears) the session cookie: HttpOnly, SameSite=Strict, Secure over https. */
function setCookie(deps: SessionRouteDeps, req: FastifyRequest, reply: FastifyReply, value: string, maxAge: number) {
  return reply.setCookie(SESSION_COOKIE, value, { path: '/', httpOnly: true, sameSite: 'strict', secure: deps.secure(req), maxAge });
}

export function sessionRoutes(app: App, deps: SessionRouteDeps): void {
  signInRoute(app, deps);
  cookieSessionRoutes(app, deps);
}

/** Signing in: an API key and its secret for a session cookie. */
function signInRoute(app: App, deps: SessionRouteDeps): void {
  app.post(
    '/api/session',
    {
      schema: {
        tags: ['Console session'],
        security: [],
        operationId: 'signIn',
        summary: 'Sign in to the console with an API key and its secret',
        description:
          "Checks the API key and its secret and answers the session (organization, CSRF token, expiry) with a session cookie (HttpOnly, SameSite=Strict). The cookie then stands for the organization's key on the API routes; send the CSRF token in X-CSRF-Token on every POST, PUT, PATCH and DELETE. Public; 401 when the key or the secret is wrong, 403 for an inactive organization, 429 after too many attempts from one address.",
        body: Type.Object({ api_key: Text(512, { minLength: 1 }), api_secret: Text(512, { minLength: 1 }) }, { additionalProperties: false }),
        response: pimResponses(200, Session),
      },
    },
    async (req, reply) => {
      const decision = await deps.limiter.consume(req.ip);
      if (!decision.allowed) {
        const seconds = retryAfterSeconds(decision);
        throw new AppError('rate_limited', `Too many sign-in attempts: try again in ${seconds} s`, seconds);
      }
      const signedIn = await deps.sessions.signIn(req.body.api_key, req.body.api_secret).catch((err: unknown) => {
        // One message for a wrong key and a wrong secret: the page need not say which half was wrong.
        if (err instanceof AppError && err.kind === 'unauthorized') throw new AppError('unauthorized', 'The API key or the secret is wrong');
        throw err;
      });
      setCookie(deps, req, reply, signedIn.token, deps.ttlSeconds);
      return ok(signedIn.session);
    },
  );
}

/** The cookie's session: reading it, ending it. */
function cookieSessionRoutes(app: App, deps: SessionRouteDeps): void {
  app.get(
    '/api/session',
    {
      schema: {
        tags: ['Console session'],
        security: [],
        operationId: 'getSession',
        summary: 'Whether this cookie is signed in: its organization and CSRF token',
        description:
          "Answers {signed_in, ended, session}: the signed-in session's organization, CSRF token and expiry, or signed_in false and session null when no session cookie came, or when its session has ended (ended true; the cookie is then cleared). Always 200: not being signed in is an answer here.",
        response: pimResponses(200, SessionState),
      },
    },
    async (req, reply) => {
      const token = sessionToken(req);
      const session = token ? await deps.sessions.authenticate(token) : null;
      // The dead cookie goes.
      if (token && !session) setCookie(deps, req, reply, '', 0);
      return ok({ signed_in: session !== null, ended: token !== undefined && session === null, session: session?.view ?? null });
    },
  );

  app.delete(
    '/api/session',
    {
      config: { openapi: IGNORED_BODY },
      schema: {
        tags: ['Console session'],
        security: [],
        operationId: 'signOut',
        summary: 'Sign out of the console',
        description:
          'Ends the session and clears its cookie; answers 200 also when no session is live. While the session is live the call needs its X-CSRF-Token, else 403.',
        response: pimResponses(200, Type.Object({ signed_out: Type.Boolean() })),
      },
    },
    async (req, reply) => {
      const token = sessionToken(req);
      if (token) {
        // A live session signs out only with its CSRF token, so that no other site can sign the merchant out.
        const live = await deps.sessions.authenticate(token);
        if (live && !deps.sessions.csrfMatches(token, header(req, 'x-csrf-token'))) throw csrfRefused();
        await deps.sessions.signOut(token);
      }
      setCookie(deps, req, reply, '', 0);
      return ok({ signed_out: true });
    },
  );
}

export const csrfRefused = () => new AppError('forbidden', 'The CSRF token is missing or wrong (X-CSRF-Token): reload the console');

const header = (req: FastifyRequest, name: string) => {
  const value = req.headers[name];
  return typeof value === 'string' ? value : undefined;
};

/**
 * On every /api request that sends neither X-API-KEY nor Authorization: a session cookie becomes `req.consoleSession`
 * (a cookie that opens nothing sets `consoleSessionEnded`); a state-changing method must carry the session's CSRF token.
 * Registered on the root, so the PIM's and the connector's own hooks see the result.
 */
export function installSessionHook(app: App, sessions: SessionService): void {
  app.decorateRequest('consoleSession', null);
  app.decorateRequest('consoleSessionEnded', false);
  // A callback hook, not an async one: most requests (API keys, other paths) leave at once, without a promise.
  app.addHook('onRequest', (req, _reply, done) => {
    // The install's start (/shopify/install) is the console's too: it installs for the signed-in organization.
    if (!(req.url.startsWith('/api/') || req.url.startsWith('/shopify/install')) || req.url.startsWith('/api/session')) return done();
    if (req.headers['x-api-key'] !== undefined || req.headers.authorization !== undefined) return done();
    const token = sessionToken(req);
    if (!token) return done();
    sessions.authenticate(token).then((session) => {
      if (!session) {
        req.consoleSessionEnded = true;
        return done();
      }
      if (!SAFE_METHODS.has(req.method) && !sessions.csrfMatches(token, header(req, 'x-csrf-token'))) return done(csrfRefused());
      req.consoleSession = { organizationId: session.organizationId, keyId: session.keyId, accountKeyHashes: session.accountKeyHashes };
      done();
    }, done);
  });
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

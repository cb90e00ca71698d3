// The operator API under /admin: plain JSON (no envelope), Bearer ADMIN_TOKEN. One scope: the token check and the
// error answer here, the routes by resource (organizations, API keys, shops, sandbox shops).
import type { FastifyReply, FastifyRequest } from 'fastify';
import { safeEqual } from '../lib/crypto.js';
import { checkTokenLimited, type RateLimiter } from '../lib/rate-limiter.js';
import type { App } from '../http/app-type.js';
import { AppError, classifyError, UNSUPPORTED_MEDIA_TYPE } from '../http/errors.js';
import type { AdminService } from './admin.service.js';
import { apiKeyRoutes } from './api-key.routes.js';
import { organizationRoutes } from './organization.routes.js';
import { sandboxShopRoutes } from './sandbox-shop.routes.js';
import { shopRoutes } from './shop.routes.js';
import type { ShopService } from './shop.service.js';

/**
 * A body of a content type the admin API does not take. The wording is the one this API has always answered with,
 * which names the PIM's multipart route (the admin API has none); kept as it is until the answer is changed on purpose.
 */
const ADMIN_UNSUPPORTED_MEDIA_TYPE = `${UNSUPPORTED_MEDIA_TYPE} (multipart/form-data only for POST /api/products/image-search)`;

/** Any error → the admin API's `{error}` with its status; details of a 5xx go to the log only. */
export function sendAdminError(err: unknown, req: FastifyRequest, reply: FastifyReply) {
  const { statusCode, message, retryAfterSeconds } = classifyError(err, ADMIN_UNSUPPORTED_MEDIA_TYPE);
  if (statusCode >= 500) req.log.error({ err }, 'admin request failed');
  if (retryAfterSeconds !== undefined) reply.header('Retry-After', String(retryAfterSeconds));
  return reply.code(statusCode).send({ error: message });
}

export async function adminPlugin(
  app: App,
  opts: {
    adminToken: string;
    /** Wrong admin tokens per client address (ADMIN_AUTH_RATE_LIMIT a minute); a right token takes no point. */
    limiter: RateLimiter;
    admin: AdminService;
    shops?: ShopService;
  },
): Promise<void> {
  const { admin } = opts;
  app.setErrorHandler(sendAdminError);

  app.addHook('onRequest', async (req) => {
    const token = /^bearer +(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
    const check = await checkTokenLimited(opts.limiter, req.ip, () => token !== undefined && safeEqual(token, opts.adminToken), req.log, 'admin API');
    if (check.ok) return;
    if (check.limited) {
      throw new AppError('rate_limited', `Too many wrong admin tokens from this address: try again in ${check.retryAfterSeconds} s`, check.retryAfterSeconds);
    }
    throw new AppError('unauthorized', 'Missing or invalid admin token');
  });

  organizationRoutes(app, admin);
  apiKeyRoutes(app, admin);
  if (opts.shops) {
    shopRoutes(app, opts.shops);
    sandboxShopRoutes(app, opts.shops);
  }
}

// The connector API (spec/connector-api.md): an encapsulated scope with its own envelope, error handler and bearer-token
// authentication. Every route declares `config.access` ('public' | 'read' | 'write' | 'admin'); a route without it is
// refused when registered, and answered 500 should one slip through (fail closed). Authentication, the IP limits (the
// authentication limit, or the public routes' own) and the scope check run in onRequest, before the body is parsed.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App } from '../http/app-type.js';
import type { PathPatterns } from '../http/path-patterns.js';
import { accountShopRoutes } from './shop-auth/account-shops.routes.js';
import type { ShopInstallService } from './shop-auth/shop-install.service.js';
import type { ConnectorAuthService } from './auth/connector-auth.service.js';
import type { ConsoleAccess } from './auth/console-access.js';
import { accountRoutes } from './integrations/account.routes.js';
import '../http/console-session.js';
import { AppError } from '../http/errors.js';
import { ConnectorError, type ConnectorErrorCode } from './connector.errors.js';
import './connector.types.js';
import { integrationSettingsRoutes } from './integrations/integration-settings.routes.js';
import type { IntegrationSettingsService } from './integrations/integration-settings.service.js';
import { integrationRoutes } from './integrations/integration.routes.js';
import type { IntegrationService } from './integrations/integration.service.js';
import { statusRoutes } from './status/status.routes.js';
import { mappingRoutes } from './mappings/mapping.routes.js';
import type { MappingService } from './mappings/mapping.service.js';
import { pushRoutes } from './push/push.routes.js';
import type { PushService } from './push/push.service.js';
import type { StatusService } from './status/status.service.js';
import { fullSyncRoutes } from './sync/full-sync.routes.js';
import type { FullSyncService } from './sync/full-sync.service.js';
import { adoptionRoutes } from './adopt/adoption.routes.js';
import type { AdoptionService } from './adopt/adoption.service.js';
import { driftRoutes } from './drift/drift.routes.js';
import type { DriftService } from './drift/drift.service.js';
import { webhookSettingsRoutes } from './webhooks/webhook.routes.js';
import { collectionRoutes } from './collections/collection.routes.js';
import type { CategoryCollectionService } from './collections/category-collection.service.js';
import type { WebhookService } from './webhooks/webhook.service.js';
import { liveRoutes } from './live/live.routes.js';
import type { SyncStatesService } from './live/sync-states.service.js';
import type { SyncStreamService } from './live/sync-stream.service.js';

export interface ConnectorDeps {
  auth: ConnectorAuthService;
  integrations: IntegrationService;
  settings: IntegrationSettingsService;
  status: StatusService;
  push: PushService;
  mappings: MappingService;
  fullSync: FullSyncService;
  adoptions: AdoptionService;
  /** Drift reports (POST/GET /api/drift). */
  drift: DriftService;
  /** The category collections (GET /api/collections, POST /api/collections/reconcile). */
  collections: Pick<CategoryCollectionService, 'list' | 'reconcileNow'>;
  /** Console sessions on connector routes (X-Integration-Id) and the account's integrations (GET /api/integrations). */
  console: ConsoleAccess;
  /** The shop's webhook subscriptions and the deletion setting (GET/POST/PUT /api/integration/webhooks). */
  webhooks?: WebhookService;
  /** The console's "Connect a Shopify store" (POST /api/shops; connector/shop-auth). */
  installs?: ShopInstallService;
  /** The console's live sync states (GET /api/sync/events, GET /api/sync/states; connector/live). */
  live?: { streams: SyncStreamService; states: SyncStatesService };
}

const APP_ERROR_CODES: Record<AppError['kind'], ConnectorErrorCode> = {
  validation: 'VALIDATION_FAILED',
  payload_too_large: 'VALIDATION_FAILED',
  unauthorized: 'AUTHENTICATION_FAILED',
  forbidden: 'INSUFFICIENT_SCOPE',
  not_found: 'NOT_FOUND',
  rate_limited: 'RATE_LIMITED',
};

/** Any error → the connector's error envelope with the code's HTTP status; details of 5xx go to the log only. */
export function toConnectorError(err: unknown, req: FastifyRequest): ConnectorError {
  if (err instanceof ConnectorError) return err;
  // Shared code (an unknown route, a shared limit) raises the common AppError: the connector's own code for its kind.
  if (err instanceof AppError) {
    const headers: Record<string, string> = err.retryAfterSeconds === undefined ? {} : { 'Retry-After': String(err.retryAfterSeconds) };
    return new ConnectorError(APP_ERROR_CODES[err.kind], err.message, undefined, headers);
  }
  const e = err as { name?: string; statusCode?: number; code?: string; message?: string; validation?: { keyword: string }[]; validationContext?: string };
  if (e?.validation) {
    const body = req.body;
    if (e.validationContext === 'body' && (body === undefined || body === null || typeof body !== 'object' || Array.isArray(body))) {
      return body === undefined
        ? new ConnectorError('MISSING_FIELD', 'A JSON request body is required')
        : new ConnectorError('VALIDATION_FAILED', 'The request body must be a JSON object');
    }
    if (e.validation[0]?.keyword === 'required') return new ConnectorError('MISSING_FIELD', e.message ?? 'A required field is missing');
    return new ConnectorError('VALIDATION_FAILED', e.message ?? 'Validation failed');
  }
  switch (e?.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ConnectorError('INVALID_JSON', 'The request body is not valid JSON');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ConnectorError('INVALID_JSON', 'The request body must be JSON (Content-Type: application/json)');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ConnectorError('VALIDATION_FAILED', 'The request body is larger than 1 MB');
  }
  if (e?.name === 'SyntaxError' && e.statusCode === 400) return new ConnectorError('INVALID_JSON', 'The request body is not valid JSON');
  if (typeof e?.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) {
    return new ConnectorError('VALIDATION_FAILED', e.message ?? 'Bad request', 400);
  }
  return new ConnectorError('INTERNAL_ERROR', 'An unexpected error occurred');
}

export function sendConnectorError(err: unknown, req: FastifyRequest, reply: FastifyReply) {
  const error = toConnectorError(err, req);
  if (error.statusCode >= 500 && error.code === 'INTERNAL_ERROR') req.log.error({ err }, 'connector request failed');
  for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
  const routeStatus = error.code === 'VALIDATION_FAILED' ? req.routeOptions.config?.validationFailedStatus : undefined;
  return reply.code(routeStatus ?? error.statusCode).send({ status: 'error', message: error.message, code: error.code });
}

/** `paths` learns every connector route's URL (the app's unknown-route handler answers those paths in this envelope). */
export async function connectorPlugin(app: App, deps: ConnectorDeps, paths?: PathPatterns): Promise<void> {
  app.decorateRequest('connector', null);
  app.setErrorHandler(sendConnectorError);

  app.addHook('onRoute', (route) => {
    const access = (route.config as { access?: unknown } | undefined)?.access;
    if (!['public', 'account', 'read', 'write', 'admin'].includes(access as string)) {
      throw new Error(`connector route ${String(route.method)} ${route.url} must declare config.access ('public', 'account', 'read', 'write' or 'admin')`);
    }
    paths?.add(route.url);
  });

  app.addHook('onRequest', async (req) => {
    const access = req.routeOptions.config.access;
    if (access === 'public') return deps.auth.admitPublic(req.ip);
    if (access === 'account') {
      if (!req.consoleSession) throw new ConnectorError('AUTHENTICATION_FAILED', 'Sign in to the console first (this route takes a console session)', 401);
      return;
    }
    if (access !== 'read' && access !== 'write' && access !== 'admin') {
      throw new ConnectorError('INTERNAL_ERROR', 'An unexpected error occurred');
    }
    // A console session (no bearer token sent) acts on the integration it names, if its PIM account is the session's.
    if (req.headers.authorization === undefined && req.consoleSession) {
      req.connector = await deps.console.authenticate(req.consoleSession, req.headers['x-integration-id']);
      return;
    }
    req.connector = await deps.auth.authenticate(req.headers.authorization, req.ip, access);
  });

  integrationRoutes(app, deps.integrations);
  integrationSettingsRoutes(app, deps.settings);
  statusRoutes(app, { status: deps.status });
  pushRoutes(app, deps.push);
  mappingRoutes(app, deps.mappings);
  fullSyncRoutes(app, deps.fullSync);
  adoptionRoutes(app, deps.adoptions);
  driftRoutes(app, deps.drift);
  collectionRoutes(app, deps.collections);
  accountRoutes(app, deps.console);
  if (deps.webhooks) webhookSettingsRoutes(app, deps.webhooks);
  if (deps.installs) accountShopRoutes(app, { installs: deps.installs });
  if (deps.live) liveRoutes(app, deps.live);
}

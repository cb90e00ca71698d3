// The server's plain settings, each from its variable else its default: its role, sync, HTTP limits, rate limits,
// media, console, where clients reach it (PUBLIC_URL) and how /metrics is served.
import path from 'node:path';
import { projectRoot } from '../paths.js';
import { bool, ConfigError, type Env, int, str, url } from './env.js';
import { trustProxy } from './trust-proxy.js';

export const ROLES = ['api', 'worker', 'all'] as const;
export type Role = (typeof ROLES)[number];

/** PUBLIC_URL: an http(s) URL, optionally with a path, without a trailing slash; default http://HOST:PORT. */
export function publicUrl(env: Env, host: string, port: number): string {
  const raw = url(env, 'PUBLIC_URL', ['http', 'https']);
  if (raw === null) return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  const parsed = new URL(raw);
  if (raw.endsWith('/')) throw new ConfigError(`PUBLIC_URL must not end with a slash, got "${raw}"`);
  if (parsed.search || parsed.hash || parsed.username || parsed.password) {
    throw new ConfigError('PUBLIC_URL must be a plain http(s) URL, without credentials, query or fragment');
  }
  return raw;
}

/** METRICS_*: a token of its own, and optionally a listener of its own (see docs/operations.md). */
export function metricsSettings(
  env: Env,
  port: number,
): { metricsEnabled: boolean; metricsToken: string | null; metricsPort: number | null; metricsHost: string } {
  const token = str(env, 'METRICS_TOKEN') ?? null;
  if (token !== null && token.length < 16) throw new ConfigError('METRICS_TOKEN must be at least 16 characters');
  const metricsPort = str(env, 'METRICS_PORT') === undefined ? null : int(env, 'METRICS_PORT', 0, 0, 65535);
  if (metricsPort !== null && metricsPort !== 0 && metricsPort === port) throw new ConfigError(`METRICS_PORT must differ from PORT (${port})`);
  const host = str(env, 'METRICS_HOST');
  if (host !== undefined && metricsPort === null) throw new ConfigError('METRICS_HOST needs METRICS_PORT: without it /metrics is served on PORT');
  return { metricsEnabled: bool(env, 'METRICS_ENABLED', true), metricsToken: token, metricsPort, metricsHost: host ?? '127.0.0.1' };
}

/** The server's plain settings: role, sync, HTTP, rate limits, media, console (each from its variable, else its default). */
export function serverSettings(env: Env, embedded: boolean, role: Role) {
  return {
    role,
    syncConcurrency: int(env, 'SYNC_CONCURRENCY', 8, 1, 256),
    syncPollSeconds: int(env, 'SYNC_POLL_SECONDS', 30, 0, 86_400),
    syncOnPimChange: bool(env, 'SYNC_ON_PIM_CHANGE', true),
    // Shopify retries a failed delivery for up to 48 hours (https://shopify.dev/docs/apps/build/webhooks/ignore-duplicates):
    // older than that, a delivery can only be a replay. Shorter windows refuse Shopify's own late retries.
    webhookMaxAgeSeconds: int(env, 'WEBHOOK_MAX_AGE_SECONDS', 48 * 3600 + 3600, 60, 7 * 86_400),
    syncBulkThreshold: int(env, 'SYNC_BULK_THRESHOLD', 200, 1, 10_000_000),
    syncBulkChunk: int(env, 'SYNC_BULK_CHUNK', 1_000, 1, 10_000),
    syncRetryLimit: int(env, 'SYNC_RETRY_LIMIT', 5, 0, 50),
    syncRetryDelaySeconds: int(env, 'SYNC_RETRY_DELAY_SECONDS', 5, 0, 3_600),
    syncJobExpireSeconds: int(env, 'SYNC_JOB_EXPIRE_SECONDS', 15, 10, 86_400),
    port: int(env, 'PORT', 8080, 0, 65535),
    host: str(env, 'HOST') ?? '127.0.0.1',
    redisUrl: url(env, 'REDIS_URL', ['redis', 'rediss']),
    shopifySandbox: bool(env, 'SHOPIFY_SANDBOX', embedded),
    seedDemo: bool(env, 'SEED_DEMO', embedded),
    authRateLimit: int(env, 'AUTH_RATE_LIMIT', 300, 1, 10_000_000),
    connectorPublicRateLimit: int(env, 'CONNECTOR_PUBLIC_RATE_LIMIT', 120, 1, 10_000_000),
    mediaDownloadConcurrency: int(env, 'MEDIA_DOWNLOAD_CONCURRENCY', 8, 1, 1_000),
    mediaQuotaBytes: int(env, 'MEDIA_QUOTA_BYTES', 5 * 1024 ** 3, 0, Number.MAX_SAFE_INTEGER),
    importMaxBytes: int(env, 'IMPORT_MAX_BYTES', 200 * 1024 ** 2, 1024, 2 * 1024 ** 3 - 1),
    mediaAllowPrivateNetworks: bool(env, 'MEDIA_ALLOW_PRIVATE_NETWORKS', false),
    // Off unless set, embedded mode too: the demo's PIM is this server's own PUBLIC_URL, which is always allowed.
    connectorAllowPrivateNetworks: bool(env, 'CONNECTOR_ALLOW_PRIVATE_NETWORKS', false),
    trustProxy: trustProxy(env),
    httpHeadersTimeoutSeconds: int(env, 'HTTP_HEADERS_TIMEOUT_SECONDS', 10, 1, 600),
    httpKeepAliveTimeoutSeconds: int(env, 'HTTP_KEEP_ALIVE_TIMEOUT_SECONDS', 72, 5, 3_600),
    httpBodyMinBytesPerSecond: int(env, 'HTTP_BODY_MIN_BYTES_PER_SECOND', 1_024, 1, 1024 ** 3),
    httpBodyRateWindowSeconds: int(env, 'HTTP_BODY_RATE_WINDOW_SECONDS', 10, 1, 600),
    adminAuthRateLimit: int(env, 'ADMIN_AUTH_RATE_LIMIT', 60, 1, 10_000_000),
    consoleSessionHours: int(env, 'CONSOLE_SESSION_HOURS', 12, 1, 24 * 30),
    consoleDir: path.resolve(str(env, 'CONSOLE_DIR') ?? path.join(projectRoot, 'console', 'dist')),
  };
}

// Every environment variable Pimbridge reads, validated once, typed and frozen: the Config here, each section's
// variables in config/ (the parsers, the server's settings, the secrets, TRUST_PROXY, logging). Nothing else in src/
// reads process.env.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { ConfigError, type Env, int, str, url } from './config/env.js';
import { type LogFormat, type LogLevel, logFormat, logLevel } from './config/logging.js';
import { embeddedSecrets, encryptionKey, SECRETS_FILE, secrets } from './config/secrets.js';
import { metricsSettings, publicUrl, ROLES, type Role, serverSettings } from './config/server-settings.js';
import type { TrustProxy } from './config/trust-proxy.js';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | null;
  redisUrl: string | null;
  adminToken: string;
  /** 32 raw bytes, decoded from base64. */
  encryptionKey: Buffer;
  /** True when ADMIN_TOKEN / ENCRYPTION_KEY were generated on this start (first start of the data dir). */
  secretsGenerated: boolean;
  shopifySandbox: boolean;
  seedDemo: boolean;
  pimRateLimitRead: number;
  pimRateLimitWrite: number;
  authRateLimit: number;
  mediaAllowPrivateNetworks: boolean;
  /**
   * CONNECTOR_ALLOW_PRIVATE_NETWORKS (default false, embedded mode too): let the connector's PIM calls (pim_base_url)
   * reach loopback, private and link-local ranges; PUBLIC_URL's origin is always allowed.
   */
  connectorAllowPrivateNetworks: boolean;
  /** Where clients and storefronts reach this server (no trailing slash); absolute media URLs start with it. */
  publicUrl: string;
  /**
   * SHOPIFY_API_SECRET: the app's client secret, with which Shopify signs the webhooks it delivers (X-Shopify-Hmac-Sha256).
   * Null: only sandbox shops are subscribed, and their deliveries are signed with a secret derived from ENCRYPTION_KEY.
   */
  shopifyApiSecret: string | null;
  /**
   * SHOPIFY_API_KEY: the Pimbridge app's client id (Dev Dashboard), with SHOPIFY_API_SECRET the app merchants install
   * through GET /shopify/install. Null: real stores connect with their own app's client credentials or a legacy token.
   */
  shopifyApiKey: string | null;
  /** WEBHOOK_MAX_AGE_SECONDS: a delivery whose X-Shopify-Triggered-At is older than this is refused (replays). */
  webhookMaxAgeSeconds: number;
  /** TRUST_PROXY: whose X-Forwarded-For is believed (the client's address for rate limits and logs); null: nobody's. */
  trustProxy: TrustProxy;
  /** HTTP_HEADERS_TIMEOUT_SECONDS: a request's line and headers must arrive within this (else 408, connection closed). */
  httpHeadersTimeoutSeconds: number;
  /** HTTP_KEEP_ALIVE_TIMEOUT_SECONDS: an idle kept-alive connection is closed after this. */
  httpKeepAliveTimeoutSeconds: number;
  /** HTTP_BODY_MIN_BYTES_PER_SECOND: a request body arriving slower, over a window, is refused (408, connection closed). */
  httpBodyMinBytesPerSecond: number;
  /** HTTP_BODY_RATE_WINDOW_SECONDS: the window over which a body's rate is measured. */
  httpBodyRateWindowSeconds: number;
  /** ADMIN_AUTH_RATE_LIMIT: wrong admin tokens per minute per IP before 429 (and as many wrong metrics tokens). */
  adminAuthRateLimit: number;
  /** What `serve` runs: `api` (HTTP, sends jobs), `worker` (jobs and the delta poller; /healthz and /readyz only) or `all`. */
  role: Role;
  /** Jobs of one queue run at once per worker node (sync.product; the other queues take less). */
  syncConcurrency: number;
  /** The delta sync's poll interval per integration. */
  syncPollSeconds: number;
  /** A change in this server's own PIM polls its integrations at once, between the intervals (SYNC_ON_PIM_CHANGE). */
  syncOnPimChange: boolean;
  /** A full sync of at least this many products uses bulk mutations; below it, one productSet per product. */
  syncBulkThreshold: number;
  /** Products per bulk operation of a full sync (one sync.bulk job each). */
  syncBulkChunk: number;
  /** sync.product: tries after the first, spaced by SYNC_RETRY_DELAY_SECONDS with exponential back-off (0: at once). */
  syncRetryLimit: number;
  syncRetryDelaySeconds: number;
  /** A running job's lease: a job whose worker stopped renewing it (every third of it) this long is taken over by another worker (PostgreSQL). */
  syncJobExpireSeconds: number;
  logLevel: LogLevel;
  /** LOG_FORMAT: `pretty` (readable lines) by default when stdout is a terminal, else `json`. */
  logFormat: LogFormat;
  /** Requests per minute per IP to the public connector routes (connect, status/{id}, system/status); over it 429. */
  connectorPublicRateLimit: number;
  /** Media downloads (with their decoding) running at once per process; as many more wait for a slot, others get 429. */
  mediaDownloadConcurrency: number;
  /** Bytes of media files one organization may store, each distinct file counted once; 0: no quota. */
  mediaQuotaBytes: number;
  /** IMPORT_MAX_BYTES: the largest CSV file an import accepts (default 200 MB). */
  importMaxBytes: number;
  /**
   * Bearer token GET /metrics requires: METRICS_TOKEN; in embedded mode without it, ADMIN_TOKEN on the main port (with
   * DATABASE_URL, METRICS_TOKEN is required there); null: none (own listener, no METRICS_TOKEN).
   */
  metricsToken: string | null;
  /** METRICS_ENABLED (default true): false serves no /metrics and observes no request. */
  metricsEnabled: boolean;
  /** METRICS_PORT: /metrics on a listener of its own at metricsHost (and not on the main port); null: on the main port. */
  metricsPort: number | null;
  metricsHost: string;
  /** CONSOLE_SESSION_HOURS (default 12): how long a console sign-in lasts. */
  consoleSessionHours: number;
  /** CONSOLE_DIR: the built console served at `/` (default console/dist of the project). */
  consoleDir: string;
}

/** `terminal`: whether stdout is a TTY (it picks the default LOG_FORMAT). */
export function loadConfig(env: Env = process.env, terminal = Boolean(process.stdout.isTTY)): Readonly<Config> {
  const dataDir = path.resolve(str(env, 'DATA_DIR') ?? './data');
  const databaseUrl = url(env, 'DATABASE_URL', ['postgres', 'postgresql']);
  const embedded = databaseUrl === null;

  const pimRateLimitRead = int(env, 'PIM_RATE_LIMIT_READ', 600, 1, 10_000_000);
  const pimRateLimitWrite = int(env, 'PIM_RATE_LIMIT_WRITE', 120, 1, 10_000_000);
  if (pimRateLimitRead <= pimRateLimitWrite) {
    throw new ConfigError(`PIM_RATE_LIMIT_READ (${pimRateLimitRead}) must be greater than PIM_RATE_LIMIT_WRITE (${pimRateLimitWrite})`);
  }

  const level = logLevel(env);

  const role = (str(env, 'ROLE') ?? 'all') as Role;
  if (!ROLES.includes(role)) throw new ConfigError(`ROLE (--role) must be one of ${ROLES.join(', ')}, got "${role}"`);
  if (embedded && role !== 'all') {
    throw new ConfigError(`role ${role} needs DATABASE_URL: the embedded database opens in one process only, which runs role all`);
  }

  const settings = serverSettings(env, embedded, role);
  const publicBaseUrl = publicUrl(env, settings.host, settings.port);
  const metrics = metricsSettings(env, settings.port);

  const { adminToken, keyText, secretsGenerated } = secrets(env, embedded, metrics, dataDir);

  return Object.freeze({
    ...settings,
    ...metrics,
    metricsToken: metrics.metricsToken ?? (metrics.metricsPort === null ? adminToken : null),
    publicUrl: publicBaseUrl,
    shopifyApiSecret: str(env, 'SHOPIFY_API_SECRET') ?? null,
    shopifyApiKey: str(env, 'SHOPIFY_API_KEY') ?? null,
    dataDir,
    databaseUrl,
    adminToken,
    encryptionKey: encryptionKey('ENCRYPTION_KEY', keyText),
    secretsGenerated,
    pimRateLimitRead,
    pimRateLimitWrite,
    logLevel: level,
    logFormat: logFormat(env, terminal),
  });
}

/** What the CLI's admin commands need: where the server is and the admin token. */
export interface ClientConfig {
  baseUrl: string;
  adminToken: string | null;
}

export function loadClientConfig(env: Env = process.env, overrides: { url?: string; token?: string } = {}): ClientConfig {
  const port = int(env, 'PORT', 8080, 0, 65535);
  const host = str(env, 'HOST') ?? '127.0.0.1';
  const baseUrl = overrides.url ?? url(env, 'PIMBRIDGE_URL', ['http', 'https']) ?? `http://${host}:${port}`;
  let adminToken = overrides.token ?? str(env, 'ADMIN_TOKEN') ?? null;
  if (adminToken === null) {
    const dataDir = path.resolve(str(env, 'DATA_DIR') ?? './data');
    if (existsSync(path.join(dataDir, SECRETS_FILE))) adminToken = embeddedSecrets(dataDir).secrets.admin_token;
  }
  return { baseUrl: baseUrl.replace(/\/+$/, ''), adminToken };
}

/** TEST_DATABASE_URL: read by the test suite only, kept here so every variable has one home. */
export function testDatabaseUrl(env: Env = process.env): string | null {
  return url(env, 'TEST_DATABASE_URL', ['postgres', 'postgresql']);
}

/** `pimbridge sandbox`: what the standalone Shopify sandbox reads (its stores only; no admin token or encryption key). */
export interface SandboxConfig {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | null;
  logLevel: LogLevel;
  logFormat: LogFormat;
}

export function loadSandboxConfig(
  env: Env = process.env,
  overrides: { port?: number; host?: string } = {},
  terminal = Boolean(process.stdout.isTTY),
): Readonly<SandboxConfig> {
  const level = logLevel(env);
  return Object.freeze({
    port: overrides.port ?? int(env, 'PORT', 8080, 0, 65535),
    host: overrides.host ?? str(env, 'HOST') ?? '127.0.0.1',
    dataDir: path.resolve(str(env, 'DATA_DIR') ?? './data'),
    databaseUrl: url(env, 'DATABASE_URL', ['postgres', 'postgresql']),
    logLevel: level,
    logFormat: logFormat(env, terminal),
  });
}

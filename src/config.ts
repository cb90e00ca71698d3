// Every environment variable Pimbridge reads, validated once, typed and frozen.
// Nothing else in src/ reads process.env.
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import ipaddr from 'ipaddr.js';
import { projectRoot } from './paths.js';

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
  /** A full sync of at least this many products uses bulk mutations; below it, one productSet per product. */
  syncBulkThreshold: number;
  /** Products per bulk operation of a full sync (one sync.bulk job each). */
  syncBulkChunk: number;
  /** sync.product: tries after the first, spaced by SYNC_RETRY_DELAY_SECONDS with exponential back-off (0: at once). */
  syncRetryLimit: number;
  syncRetryDelaySeconds: number;
  /** A running job's lease: a job whose worker stopped renewing it (every third of it) this long is taken over by another worker (PostgreSQL). */
  syncJobExpireSeconds: number;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
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

/** A bad value: the message is one line that names the variable. */
export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

export const ROLES = ['api', 'worker', 'all'] as const;
export type Role = (typeof ROLES)[number];

/** Fastify's trustProxy forms we take: a number of proxy hops, or the proxies' addresses and CIDR ranges. Never "all". */
export type TrustProxy = { hops: number } | { addresses: readonly string[] } | null;

/** proxy-addr's names for ranges (Fastify's trustProxy takes them too). */
const TRUST_PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

const isAddress = (text: string) => ipaddr.IPv4.isValidFourPartDecimal(text) || (text.includes(':') && ipaddr.IPv6.isValid(text));

function isAddressOrRange(text: string): boolean {
  if (TRUST_PROXY_RANGE_NAMES.includes(text)) return true;
  const slash = text.indexOf('/');
  if (slash === -1) return isAddress(text);
  const address = text.slice(0, slash);
  const bits = text.slice(slash + 1);
  if (!isAddress(address) || !/^\d{1,3}$/.test(bits)) return false;
  return Number(bits) <= (address.includes(':') ? 128 : 32);
}

/**
 * TRUST_PROXY: unset, `false` or `0`: X-Forwarded-For is ignored. A number: that many proxies in front of the server
 * (the last N entries are theirs; the client is the one before). A list: the proxies' addresses or CIDR ranges (only
 * entries they added are believed). `true` ("trust every hop") let any client choose its address, so it is refused.
 */
function trustProxy(env: Env): TrustProxy {
  const raw = str(env, 'TRUST_PROXY');
  if (raw === undefined || /^(false|no|0)$/i.test(raw)) return null;
  if (/^(true|yes)$/i.test(raw)) {
    throw new ConfigError(
      `TRUST_PROXY=${raw} is no longer accepted: it believed any client's X-Forwarded-For. Set the number of proxies in front of the server (TRUST_PROXY=1 behind one load balancer) or their addresses (TRUST_PROXY=10.0.0.0/8)`,
    );
  }
  if (/^\d+$/.test(raw)) return { hops: int(env, 'TRUST_PROXY', 0, 1, 10) };
  const entries = raw.split(',').map((e) => e.trim());
  const bad = entries.find((e) => !isAddressOrRange(e));
  if (bad !== undefined) {
    throw new ConfigError(
      `TRUST_PROXY must be a number of proxies (1 to 10) or a comma-separated list of proxy addresses or CIDR ranges, got "${bad === '' ? raw : bad}"`,
    );
  }
  return { addresses: entries };
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
const LOG_FORMATS = ['json', 'pretty'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

/** LOG_FORMAT, else readable lines for a person at a terminal and JSON for everything else (files, collectors). */
function logFormat(env: Env, terminal: boolean): LogFormat {
  const raw = str(env, 'LOG_FORMAT');
  if (raw === undefined) return terminal ? 'pretty' : 'json';
  if (!(LOG_FORMATS as readonly string[]).includes(raw)) throw new ConfigError(`LOG_FORMAT must be json or pretty, got "${raw}"`);
  return raw as LogFormat;
}

function str(env: Env, name: string): string | undefined {
  const v = env[name];
  return v === undefined || v.trim() === '' ? undefined : v.trim();
}

function int(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = str(env, name);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(`${name} must be an integer between ${min} and ${max}, got "${raw}"`);
  }
  return Number(raw);
}

function bool(env: Env, name: string, fallback: boolean): boolean {
  const raw = str(env, name);
  if (raw === undefined) return fallback;
  if (/^(true|1|yes)$/i.test(raw)) return true;
  if (/^(false|0|no)$/i.test(raw)) return false;
  throw new ConfigError(`${name} must be true or false, got "${raw}"`);
}

function url(env: Env, name: string, protocols: string[]): string | null {
  const raw = str(env, name);
  if (raw === undefined) return null;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be a URL (${protocols.join(' or ')}), got an unparseable value`);
  }
  if (!protocols.includes(parsed.protocol.replace(/:$/, ''))) {
    throw new ConfigError(`${name} must use ${protocols.join(' or ')}, got "${parsed.protocol}"`);
  }
  return raw;
}

/** PUBLIC_URL: an http(s) URL, optionally with a path, without a trailing slash; default http://HOST:PORT. */
function publicUrl(env: Env, host: string, port: number): string {
  const raw = url(env, 'PUBLIC_URL', ['http', 'https']);
  if (raw === null) return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  const parsed = new URL(raw);
  if (raw.endsWith('/')) throw new ConfigError(`PUBLIC_URL must not end with a slash, got "${raw}"`);
  if (parsed.search || parsed.hash || parsed.username || parsed.password) {
    throw new ConfigError('PUBLIC_URL must be a plain http(s) URL, without credentials, query or fragment');
  }
  return raw;
}

function encryptionKey(name: string, raw: string): Buffer {
  const key = Buffer.from(raw, 'base64');
  if (key.length !== 32 || !/^[A-Za-z0-9+/]+={0,2}$/.test(raw)) {
    throw new ConfigError(`${name} must be 32 bytes encoded as base64 (try: openssl rand -base64 32)`);
  }
  return key;
}

/** METRICS_*: a token of its own, and optionally a listener of its own (see docs/operations.md). */
function metricsSettings(env: Env, port: number): { metricsEnabled: boolean; metricsToken: string | null; metricsPort: number | null; metricsHost: string } {
  const token = str(env, 'METRICS_TOKEN') ?? null;
  if (token !== null && token.length < 16) throw new ConfigError('METRICS_TOKEN must be at least 16 characters');
  const metricsPort = str(env, 'METRICS_PORT') === undefined ? null : int(env, 'METRICS_PORT', 0, 0, 65535);
  if (metricsPort !== null && metricsPort !== 0 && metricsPort === port) throw new ConfigError(`METRICS_PORT must differ from PORT (${port})`);
  const host = str(env, 'METRICS_HOST');
  if (host !== undefined && metricsPort === null) throw new ConfigError('METRICS_HOST needs METRICS_PORT: without it /metrics is served on PORT');
  return { metricsEnabled: bool(env, 'METRICS_ENABLED', true), metricsToken: token, metricsPort, metricsHost: host ?? '127.0.0.1' };
}

interface StoredSecrets {
  admin_token: string;
  encryption_key: string;
}

export const SECRETS_FILE = 'secrets.json';

/** Embedded mode: secrets not given in the environment are generated once into DATA_DIR (mode 0600) and reused. */
function embeddedSecrets(dataDir: string): { secrets: StoredSecrets; generated: boolean } {
  const file = path.join(dataDir, SECRETS_FILE);
  if (existsSync(file)) {
    let parsed: StoredSecrets | null;
    try {
      parsed = JSON.parse(readFileSync(file, 'utf8')) as StoredSecrets | null;
    } catch {
      parsed = null;
    }
    if (typeof parsed?.admin_token !== 'string' || typeof parsed.encryption_key !== 'string') {
      throw new ConfigError(`${file} is damaged: it must hold admin_token and encryption_key`);
    }
    return { secrets: parsed, generated: false };
  }
  const secrets: StoredSecrets = {
    admin_token: `adm_${randomBytes(32).toString('base64url')}`,
    encryption_key: randomBytes(32).toString('base64'),
  };
  mkdirSync(dataDir, { recursive: true, mode: 0o700 }); // private to this user, as all of DATA_DIR (lib/private-files.ts)
  writeFileSync(file, `${JSON.stringify(secrets, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
  chmodSync(file, 0o600);
  return { secrets, generated: true };
}

/** The server's plain settings: role, sync, HTTP, rate limits, media, console (each from its variable, else its default). */
function serverSettings(env: Env, embedded: boolean, role: Role) {
  return {
    role,
    syncConcurrency: int(env, 'SYNC_CONCURRENCY', 8, 1, 256),
    syncPollSeconds: int(env, 'SYNC_POLL_SECONDS', 30, 0, 86_400),
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

/**
 * ADMIN_TOKEN, ENCRYPTION_KEY and METRICS_TOKEN checked; in embedded mode the missing ones are read from (or generated
 * into) DATA_DIR's secrets file.
 */
function secrets(
  env: Env,
  embedded: boolean,
  metrics: ReturnType<typeof metricsSettings>,
  dataDir: string,
): { adminToken: string; keyText: string; secretsGenerated: boolean } {
  let adminToken = str(env, 'ADMIN_TOKEN');
  let keyText = str(env, 'ENCRYPTION_KEY');
  let secretsGenerated = false;
  if (adminToken !== undefined && adminToken.length < 16) {
    throw new ConfigError('ADMIN_TOKEN must be at least 16 characters');
  }
  if (keyText !== undefined) encryptionKey('ENCRYPTION_KEY', keyText);
  if (!embedded && adminToken === undefined) throw new ConfigError('ADMIN_TOKEN is required when DATABASE_URL is set');
  if (!embedded && keyText === undefined) throw new ConfigError('ENCRYPTION_KEY is required when DATABASE_URL is set');
  // With DATABASE_URL (a production setup) /metrics has a token of its own: whoever scrapes it must not hold the admin
  // token. Embedded mode keeps the admin token as its default.
  if (!embedded && metrics.metricsEnabled && metrics.metricsPort === null && metrics.metricsToken === null) {
    throw new ConfigError(
      'METRICS_TOKEN is required when DATABASE_URL is set (/metrics does not share ADMIN_TOKEN): set it (try: openssl rand -base64 32), or METRICS_PORT to serve /metrics on a listener of its own, or METRICS_ENABLED=false',
    );
  }
  if (!embedded && metrics.metricsToken !== null && metrics.metricsToken === adminToken) {
    throw new ConfigError('METRICS_TOKEN must differ from ADMIN_TOKEN: whoever scrapes /metrics must not hold the admin token');
  }
  // Generated last, so a start refused for another bad value leaves no files behind.
  if (adminToken === undefined || keyText === undefined) {
    const stored = embeddedSecrets(dataDir);
    adminToken ??= stored.secrets.admin_token;
    keyText ??= stored.secrets.encryption_key;
    secretsGenerated = stored.generated;
  }
  return { adminToken, keyText, secretsGenerated };
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

  const logLevel = str(env, 'LOG_LEVEL') ?? 'info';
  if (!(LOG_LEVELS as readonly string[]).includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${logLevel}"`);
  }

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
    logLevel: logLevel as Config['logLevel'],
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
  logLevel: Config['logLevel'];
  logFormat: LogFormat;
}

export function loadSandboxConfig(
  env: Env = process.env,
  overrides: { port?: number; host?: string } = {},
  terminal = Boolean(process.stdout.isTTY),
): Readonly<SandboxConfig> {
  const logLevel = str(env, 'LOG_LEVEL') ?? 'info';
  if (!(LOG_LEVELS as readonly string[]).includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${logLevel}"`);
  }
  return Object.freeze({
    port: overrides.port ?? int(env, 'PORT', 8080, 0, 65535),
    host: overrides.host ?? str(env, 'HOST') ?? '127.0.0.1',
    dataDir: path.resolve(str(env, 'DATA_DIR') ?? './data'),
    databaseUrl: url(env, 'DATABASE_URL', ['postgres', 'postgresql']),
    logLevel: logLevel as Config['logLevel'],
    logFormat: logFormat(env, terminal),
  });
}

// Logger options for every server of this package: JSON lines (production, collectors) or readable lines for a person at
// a terminal (pino-pretty), with the same redaction in both, since redaction runs in pino before either is written.
import type { FastifyBaseLogger, FastifyServerOptions } from 'fastify';
import { type DestinationStream, pino } from 'pino';
import pretty from 'pino-pretty';

export const REDACTED_PATHS = [
  'req.headers["x-api-key"]',
  'req.headers["x-api-secret"]',
  'req.headers.authorization',
  'req.headers["x-shopify-access-token"]',
  'req.headers.cookie',
  '*.api_key',
  '*.api_secret',
  '*.pim_api_secret',
  '*.pim_api_key',
  '*.access_token',
  '*.api_token',
  '*.password',
];

export type LoggerOptions = Exclude<FastifyServerOptions['logger'], boolean | undefined>;

export interface LogSettings {
  logLevel: string;
  logFormat: 'json' | 'pretty';
}

/**
 * Fastify `logger` options. `destination` replaces stdout (tests). The pretty stream writes synchronously, so log
 * lines and text the process prints itself (the welcome) come out in the order they were made.
 */
export function loggerOptions(settings: LogSettings, destination?: NodeJS.WritableStream): LoggerOptions {
  const base = { level: settings.logLevel, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } };
  if (settings.logFormat === 'json') return destination ? { ...base, stream: destination } : base;
  const stream = pretty({
    destination: destination ?? 1,
    sync: true,
    ...(destination ? { colorize: false } : {}),
    translateTime: 'SYS:HH:MM:ss',
    ignore: 'pid,hostname,reqId',
    // The request id only where someone will look it up: warnings and errors (a 5xx answer carries it).
    messageFormat: (log, key) =>
      `${String(log[key] ?? '')}${typeof log.level === 'number' && log.level >= 40 && log.reqId ? ` (request ${String(log.reqId)})` : ''}`,
  });
  return { ...base, stream };
}

/**
 * The logger itself, for a server whose start-up logs before its Fastify instance exists (it is then handed to Fastify
 * as `loggerInstance`). `options` as loggerOptions makes them.
 */
export function createLogger(options: LoggerOptions): FastifyBaseLogger {
  const { stream, ...rest } = options as LoggerOptions & { stream?: DestinationStream };
  return stream ? pino(rest as Parameters<typeof pino>[0], stream) : pino(rest as Parameters<typeof pino>[0]);
}

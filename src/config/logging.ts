// LOG_LEVEL and LOG_FORMAT, read alike by the server's config and the standalone sandbox's.
import { ConfigError, type Env, str } from './env.js';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
const LOG_FORMATS = ['json', 'pretty'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

/** LOG_FORMAT, else readable lines for a person at a terminal and JSON for everything else (files, collectors). */
export function logFormat(env: Env, terminal: boolean): LogFormat {
  const raw = str(env, 'LOG_FORMAT');
  if (raw === undefined) return terminal ? 'pretty' : 'json';
  if (!(LOG_FORMATS as readonly string[]).includes(raw)) throw new ConfigError(`LOG_FORMAT must be json or pretty, got "${raw}"`);
  return raw as LogFormat;
}

export type LogLevel = (typeof LOG_LEVELS)[number];

/** LOG_LEVEL (default info): one of LOG_LEVELS. */
export function logLevel(env: Env): LogLevel {
  const level = str(env, 'LOG_LEVEL') ?? 'info';
  if (!(LOG_LEVELS as readonly string[]).includes(level)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${level}"`);
  }
  return level as LogLevel;
}

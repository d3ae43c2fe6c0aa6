import pino, { type Logger } from 'pino';
import type { Config } from './config.js';

/** Secrets and bodies never reach the log, whatever a caller or a future log line puts there. */
export const REDACT_PATHS = [
  'req.headers.authorization', 'req.headers.cookie', 'req.body', 'body', 'request.body',
  '*.authorization', '*.appSecret', '*.password', '*.privateKeyPem', '*.accessToken',
  'appSecret', 'password', 'privateKeyPem', 'accessToken',
];

export function createLogger(config: Pick<Config, 'logLevel'>, destination?: pino.DestinationStream): Logger {
  return pino({ level: config.logLevel, redact: { paths: REDACT_PATHS, censor: '[redacted]' } }, destination);
}

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';
const LEVELS: Level[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace'];

/**
 * Fastify makes a child logger, bound to the request id, for every request; most requests log
 * nothing, so the pino child (and its redaction set-up) is made at the first line that will be
 * written. Lines keep their request id. Measured on a bare route: 27-33 us of CPU per request without
 * a logger, 32-39 us with pino's per-request child; the share this saves is within this machine's noise.
 */
export function lazyChildLogger(logger: Logger, bindings: pino.Bindings, options: pino.ChildLoggerOptions): Logger {
  let child: Logger | undefined;
  const real = (): Logger => (child ??= logger.child(bindings, options));
  const lazy: Record<string, unknown> = {
    child: (more: pino.Bindings, moreOptions?: pino.ChildLoggerOptions) => real().child(more, moreOptions),
    isLevelEnabled: (level: string) => (child ?? logger).isLevelEnabled(level),
  };
  for (const level of LEVELS) {
    lazy[level] = (...args: unknown[]) => {
      if (!(child ?? logger).isLevelEnabled(level)) return;
      (real()[level] as (...a: unknown[]) => void)(...args);
    };
  }
  Object.defineProperty(lazy, 'level', { get: () => (child ?? logger).level, set: (value: string) => (real().level = value) });
  return lazy as unknown as Logger;
}

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

import secureJsonParse from 'secure-json-parse';
import { AppError } from '../errors/app-error.js';

/**
 * Parses a JSON body. An empty body is "no body" (bodyless actions may send the header anyway);
 * `__proto__` and `constructor.prototype` keys are refused outright, so no object we build can be polluted.
 */
export function parseJsonBody(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return secureJsonParse.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
  } catch (error) {
    if (error instanceof SyntaxError && /forbidden prototype/i.test(error.message)) {
      throw new AppError('INVALID_FIELD', 'Request body contains a forbidden key (__proto__ or constructor.prototype)');
    }
    throw new AppError('INVALID_FIELD', 'Request body is not valid JSON');
  }
}

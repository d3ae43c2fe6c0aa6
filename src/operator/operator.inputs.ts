import { AppError } from '../errors/app-error.js';
import { entry } from '../validation/field-spec.js';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from './operators.service.js';

export const APP_NAME_MAX_LENGTH = 200;

/** POST /admin/v1/apps. */
export const NEW_APP_RULES = entry('AppInput', 'A new app.', [
  [
    'name',
    {
      type: 'string',
      required: true,
      trim: true,
      maxLength: APP_NAME_MAX_LENGTH,
      description: `Display name of the app; 1 to ${APP_NAME_MAX_LENGTH} characters, trimmed.`,
    },
  ],
]);

/** POST /admin/v1/operators/me/password. */
export const PASSWORD_CHANGE_RULES = entry('PasswordChange', 'The current password and the new one.', [
  [
    'currentPassword',
    {
      type: 'string',
      required: true,
      minLength: 1,
      maxLength: MAX_PASSWORD_LENGTH,
      message: 'must not be empty',
      description: 'The password this account signs in with now.',
    },
  ],
  [
    'newPassword',
    {
      type: 'string',
      required: true,
      minLength: MIN_PASSWORD_LENGTH,
      maxLength: MAX_PASSWORD_LENGTH,
      message: `must be ${MIN_PASSWORD_LENGTH} to ${MAX_PASSWORD_LENGTH} characters`,
      description: `${MIN_PASSWORD_LENGTH} to ${MAX_PASSWORD_LENGTH} characters, different from the current one.`,
    },
  ],
]);

/** `includeArchived=true|false`, the only query parameter of the operator lists. */
export function readIncludeArchived(query: unknown): boolean {
  const params = (query ?? {}) as Record<string, unknown>;
  for (const key of Object.keys(params)) {
    if (key !== 'includeArchived')
      throw new AppError('INVALID_QUERY_FIELD', `${key} is not an accepted query parameter`);
  }
  const value = params.includeArchived;
  if (value === undefined) return false;
  if (value !== 'true' && value !== 'false')
    throw new AppError('INVALID_QUERY_VALUE', 'includeArchived must be true or false');
  return value === 'true';
}

import { ApiError } from '../../domain/errors';

export const MIN_PASSWORD_LENGTH = 10;
export const MAX_PASSWORD_LENGTH = 256;

/** The one rule for a new password, wherever one is set (invitation, change, reset); 400 on `field`. */
export function passwordConstraintViolation(password: string, field = 'password'): ApiError | undefined {
  if (password.length < MIN_PASSWORD_LENGTH) {
    return ApiError.validation({ [field]: { type: 'MIN', message: `At least ${MIN_PASSWORD_LENGTH} characters.` } });
  }
  if (password.length > MAX_PASSWORD_LENGTH) {
    return ApiError.validation({ [field]: { type: 'MAX', message: `At most ${MAX_PASSWORD_LENGTH} characters.` } });
  }
  return undefined;
}

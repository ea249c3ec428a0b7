import { RequestFailed } from '../api/errors';
import type { Messages } from '../i18n/en';

export interface ErrorWords {
  summary: string;
  fields: string[];
}

/** Names a field of a VALIDATION error's `context.constraints` (`address.city`) for the form that sent it. */
export type FieldLabel = (path: string) => string | undefined;

/**
 * An error in the reader's language: the envelope's code in words (the portal's own refusals with
 * what their context says), a VALIDATION error field by field; the API's English message only for
 * a code the portal has no words for.
 */
export function describeError(t: Messages, error: unknown, merchant: string, fieldLabel?: FieldLabel): ErrorWords {
  if (!(error instanceof RequestFailed)) {
    return { summary: error instanceof TypeError ? t.errors.network : error instanceof Error ? error.message : String(error), fields: [] };
  }
  const context = error.envelope.context ?? {};
  if (error.code === 'PERMISSION_DENIED' && typeof context.portal_setting === 'string') {
    return { summary: t.errors.settingNotAllowed(merchant), fields: [] };
  }
  if (error.code === 'INSTRUMENT_IN_USE' && Array.isArray(context.subscription_ids)) {
    return { summary: t.errors.instrumentInUse(context.subscription_ids.length), fields: [] };
  }
  const codes: Record<string, string> = t.errors.codes;
  const summary = codes[error.code] ?? error.envelope.message;
  const constraints = context.constraints;
  if (error.code !== 'VALIDATION' || !constraints || typeof constraints !== 'object') return { summary, fields: [] };
  const fields = Object.entries(constraints as Record<string, { type?: string; message?: string }>).map(
    ([path, constraint]) => `${fieldLabel?.(path) ?? path}: ${t.errors.constraint(constraint.type ?? 'INVALID', constraint.message ?? '')}`,
  );
  return { summary: fields.length > 0 ? t.errors.fieldProblems : summary, fields };
}

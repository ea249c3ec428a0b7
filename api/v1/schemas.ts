import { z } from 'zod';
import { ApiError, type Constraints } from '../../domain/errors';
import { prefixedId } from '../common/schemas';
import { couponCode } from '../coupons/schemas';
import { constraintsFromIssues } from '../errors/zod-constraints';
import { catalogueId } from '../products/schemas';
import { unstorableCharacters } from '../http/unstorable-characters';

const V1_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;

/**
 * `YYYY-MM-DD HH:MM:SS` read as UTC; null when the text has that shape but names no instant
 * (2026-02-30, 24:00:00, 12:60:00): the parts must survive a round trip through the calendar.
 */
export function parseV1DateTime(text: string): Date | null {
  const match = V1_DATE_TIME.exec(text);
  if (!match) return null;
  const [year, month, day, hour, minute, second] = match.slice(1).map(Number) as [number, number, number, number, number, number];
  const date = new Date(0);
  // setUTCFullYear, unlike Date.UTC, does not turn years 0–99 into 1900–1999.
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, 0);
  const roundTrip =
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day &&
    date.getUTCHours() === hour &&
    date.getUTCMinutes() === minute &&
    date.getUTCSeconds() === second;
  return roundTrip ? date : null;
}

const v1DateTime = z.string().transform((text, ctx) => {
  const date = parseV1DateTime(text);
  if (date) return date;
  ctx.addIssue({
    code: 'custom',
    message: 'Expected a UTC date-time written YYYY-MM-DD HH:MM:SS that exists in the calendar, for example 2027-01-31 23:59:59.',
    params: { type: 'FORMAT' },
  });
  return z.NEVER;
});

/**
 * Section 4.12. Optional fields may also be null (older v1 clients send every field); unknown
 * fields are refused, so a misspelt `coupon_code` cannot silently restore without the coupon.
 */
export const restoreRequestSchema = z
  .strictObject({
    subscription_id: prefixedId('subscription'),
    expired_at: v1DateTime.nullish(),
    coupon_id: catalogueId.nullish(),
    coupon_code: couponCode.nullish(),
  })
  .refine((body) => body.coupon_id == null || body.coupon_code == null, {
    message: 'Pass either coupon_id or coupon_code, not both.',
    path: ['coupon_code'],
    params: { type: 'INVALID' },
  });

export interface RestoreRequest {
  subscriptionId: string;
  /** As sent; a past value is replaced with the current time by the caller, who owns the clock. */
  expiredAt?: Date;
  coupon?: { id: string } | { code: string };
}

function describe(constraints: Constraints): string {
  return Object.entries(constraints)
    .map(([field, { type, message }]) => {
      if (type === 'REQUIRED') return `${field} is required.`;
      if (type === 'UNKNOWN_FIELD') return message;
      return `${field}: ${message}`;
    })
    .join(' ');
}

/** The body as parsed JSON, validated; a 2.01 ApiError naming every offending field otherwise. */
export function parseRestoreRequest(input: unknown): RestoreRequest {
  const unstorable = unstorableCharacters(input);
  if (unstorable) throw new ApiError('VALIDATION', describe(unstorable), { constraints: unstorable });
  const result = restoreRequestSchema.safeParse(input);
  if (!result.success) {
    const constraints = constraintsFromIssues(result.error.issues, input);
    throw new ApiError('VALIDATION', describe(constraints), { constraints });
  }
  const { subscription_id, expired_at, coupon_id, coupon_code } = result.data;
  return {
    subscriptionId: subscription_id,
    ...(expired_at ? { expiredAt: expired_at } : {}),
    ...(coupon_id ? { coupon: { id: coupon_id } } : coupon_code ? { coupon: { code: coupon_code } } : {}),
  };
}

/** JSON text to a value; a 2.01 ApiError that quotes nothing of the body otherwise. */
export function parseJsonBody(raw: Buffer): unknown {
  const text = raw.toString('utf8');
  if (text.trim() === '') throw new ApiError('VALIDATION', 'The request body is empty; send a JSON object.');
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError('VALIDATION', 'The request body is not valid JSON.');
  }
}

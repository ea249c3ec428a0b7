import { z } from 'zod';
import { characterCount } from '../../domain/characters';

/** Limits the spec leaves open (section 8), documented in docs/customers.md. */
export const METADATA_MAX_KEYS = 50;
export const METADATA_MAX_KEY_LENGTH = 40;
export const METADATA_MAX_VALUE_LENGTH = 500;

const metadataValue = z.union([z.string().max(METADATA_MAX_VALUE_LENGTH), z.number(), z.boolean()]);

/** `metadata` of customers, invoices and subscriptions as a request. */
export const metadata = z
  .record(z.string(), metadataValue)
  .superRefine((entries, ctx) => {
    const keys = Object.keys(entries);
    if (keys.length > METADATA_MAX_KEYS) {
      ctx.addIssue({ code: 'custom', message: `At most ${METADATA_MAX_KEYS} keys.`, params: { type: 'MAX' } });
    }
    for (const key of keys) {
      const length = characterCount(key);
      if (length === 0 || length > METADATA_MAX_KEY_LENGTH) {
        ctx.addIssue({
          code: 'custom',
          path: [key],
          message: `Keys have 1 to ${METADATA_MAX_KEY_LENGTH} characters.`,
          params: { type: length === 0 ? 'MIN' : 'MAX' },
        });
      }
    }
  })
  .meta({
    maxProperties: METADATA_MAX_KEYS,
    propertyNames: { minLength: 1, maxLength: METADATA_MAX_KEY_LENGTH },
    description: `Strings, numbers or booleans, answered as sent: at most ${METADATA_MAX_KEYS} keys of 1 to ${METADATA_MAX_KEY_LENGTH} characters, strings up to ${METADATA_MAX_VALUE_LENGTH}.`,
  });

/** `metadata` as records answer it. */
export const metadataObject = z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]));

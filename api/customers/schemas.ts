import { z } from 'zod';
import { COUNTRY_CODES } from '../../domain/countries';
import { CURRENCY_CODES } from '../../domain/currencies';
import { requiresState, STATE_REQUIRED_COUNTRIES } from '../../domain/addresses';
import { characterCount } from '../../domain/characters';
import { canonicalLocale } from '../../domain/locales';
import { e164PhoneNumber } from '../../domain/phone-numbers';
import { dateTime, prefixedId } from '../common/schemas';

/** Limits the spec leaves open (section 8), documented in docs/customers.md. */
export const METADATA_MAX_KEYS = 50;
export const METADATA_MAX_KEY_LENGTH = 40;
export const METADATA_MAX_VALUE_LENGTH = 500;
export const MAX_PREFERRED_LOCALES = 10;
export const MAX_TAX_REGISTRATIONS = 20;

export const CUSTOMER_TYPES = ['INDIVIDUAL', 'BUSINESS'] as const;
export const CUSTOMER_STATUSES = ['ACTIVE', 'INACTIVE'] as const;
export const TAXABILITIES = ['EXEMPT', 'TAXABLE'] as const;

export const customerId = prefixedId('customer');
export const customerType = z.enum(CUSTOMER_TYPES);
export const customerStatus = z.enum(CUSTOMER_STATUSES);

const unique = <T>(values: T[]) => new Set(values).size === values.length;

export const country = z
  .enum(COUNTRY_CODES, { error: 'Expected an ISO 3166-1 alpha-3 country code in capitals, for example DEU.' })
  .meta({ description: 'ISO 3166-1 alpha-3 country code.' });

export const currency = z
  .enum(CURRENCY_CODES, { error: 'Expected an ISO 4217 currency code in capitals, for example EUR.' })
  .meta({ description: 'ISO 4217 currency code.' });

export const email = z.email({ error: 'Expected an e-mail address.' }).max(254);

export const phone = z
  .string()
  .max(40)
  .transform((written, ctx) => {
    const number = e164PhoneNumber(written);
    if (number === null) {
      ctx.addIssue({
        code: 'custom',
        message: 'Expected a phone number with its country code: + then country code and number, e.g. +49 30 123456 or +1 555-123-4567.',
        params: { type: 'FORMAT' },
      });
      return z.NEVER;
    }
    return number;
  })
  .meta({
    // The pattern states the E.164 form a client should send; the separators people write are a
    // leniency of the server, too irregular to spell as a pattern (docs/testing.md).
    pattern: '^\\+[1-9][0-9]{1,14}$',
    description: 'International form, `+` and country code first; spaces, dots, hyphens, slashes and parentheses are accepted. Stored and shown in E.164 (`+15551234567`).',
  });

const text = (max: number) => z.string().trim().min(1).regex(/\S/).max(max);

export const locale = z
  .string()
  .max(35)
  .transform((tag, ctx) => {
    const canonical = canonicalLocale(tag);
    if (canonical === null) {
      ctx.addIssue({ code: 'custom', message: 'Not a BCP 47 language tag, for example en-US.', params: { type: 'FORMAT' } });
      return z.NEVER;
    }
    return canonical;
  })
  .meta({
    // The canonical language-region form; any other well-formed BCP 47 tag is accepted too (docs/testing.md).
    pattern: '^[a-z]{2,3}(?:-[A-Z]{2})?$',
    description: 'BCP 47 language tag; stored in canonical form (en-us becomes en-US).',
  });

export const preferredLocales = z
  .array(locale)
  .min(1)
  .max(MAX_PREFERRED_LOCALES)
  .refine(unique, { message: 'Locales must be unique.', params: { type: 'INVALID' } })
  .meta({ uniqueItems: true, description: `Ordered, most preferred first; at most ${MAX_PREFERRED_LOCALES}.` });

export const metadata = z
  .record(z.string(), z.string().max(METADATA_MAX_VALUE_LENGTH))
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
    description: `String values only: at most ${METADATA_MAX_KEYS} keys of 1 to ${METADATA_MAX_KEY_LENGTH} characters, values up to ${METADATA_MAX_VALUE_LENGTH}.`,
  });

/** `customer.address`: every field optional (section 2.2). */
export const addressRequest = z.strictObject({
  city: text(100).optional(),
  country: country.optional(),
  line1: text(200).optional(),
  line2: text(200).optional(),
  state: text(100).optional(),
  postal_code: text(20).optional(),
});

/**
 * `business_details.legal_address` as a request: the two shapes of section 2.2 in one object.
 * A country of the address-with-state list must carry `state`; any other country takes the
 * plain shape, where `state` is optional.
 */
export const legalAddressRequest = z
  .strictObject({
    city: text(100),
    country,
    line1: text(200),
    line2: text(200).optional(),
    state: text(100).optional(),
    postal_code: text(20),
  })
  .superRefine((address, ctx) => {
    if (requiresState(address.country) && address.state === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['state'],
        message: `Required for a legal address in ${address.country}: its countries (${STATE_REQUIRED_COUNTRIES.join(', ')}) use the address-with-state shape.`,
        params: { type: 'REQUIRED' },
      });
    }
  })
  .meta({
    if: { properties: { country: { enum: [...STATE_REQUIRED_COUNTRIES] } } },
    then: { required: ['state'] },
    description: `Address with state (state required) for ${STATE_REQUIRED_COUNTRIES.join(', ')}; plain address (state optional) for any other country.`,
  });

export const taxValidationRequest = z.strictObject({
  status: z.enum(['UNVERIFIED', 'VERIFIED']),
  validated_at: dateTime,
  source: z.enum(['VIES', 'MANUAL']).meta({ description: 'Merchants may set only MANUAL; VIES validations are made by the platform.' }),
});

export const taxRegistrationRequest = z.strictObject({
  scheme: z.enum(['VAT']),
  id: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9]{2,20}$/, { error: 'Expected 2 to 20 letters and digits, without spaces or punctuation.' })
    .transform((id) => id.toUpperCase())
    .meta({ description: 'Registration number; stored in capitals.' }),
  country,
  validation: taxValidationRequest.optional().meta({ description: 'Leave out to keep the validation the registration has.' }),
});

export const taxRegistrations = z
  .array(taxRegistrationRequest)
  .max(MAX_TAX_REGISTRATIONS)
  .refine((regs) => unique(regs.map((r) => `${r.scheme}/${r.country}/${r.id}`)), {
    message: 'Each registration (scheme, country, id) may appear once.',
    params: { type: 'INVALID' },
  })
  .meta({ uniqueItems: true });

export const businessName = text(200);

/* ---------- the record (section 2.2) ---------- */

const addressFields = {
  city: z.string(),
  line1: z.string(),
  line2: z.string().optional(),
  postal_code: z.string(),
};

const legalAddressWithState = z
  .object({ ...addressFields, country: z.enum(STATE_REQUIRED_COUNTRIES), state: z.string() })
  .meta({ id: 'LegalAddressWithState' });

const plainLegalAddress = z.object({ ...addressFields, country: z.string(), state: z.string().optional() }).meta({ id: 'LegalAddress' });

export const addressObject = z.object({
  city: z.string().optional(),
  country: z.string().optional(),
  line1: z.string().optional(),
  line2: z.string().optional(),
  state: z.string().optional(),
  postal_code: z.string().optional(),
});

export const taxRegistrationObject = z.object({
  scheme: z.literal('VAT'),
  id: z.string(),
  country: z.string(),
  validation: z
    .object({ status: z.enum(['UNVERIFIED', 'VERIFIED']), validated_at: dateTime, source: z.enum(['VIES', 'MANUAL']) })
    .optional(),
});

export const taxObject = z.object({ taxability: z.enum(TAXABILITIES), registrations: z.array(taxRegistrationObject).optional() });

export const configurationObject = z.object({
  default_billing_currency: z.string().optional(),
  default_payment_instrument_id: z.string().optional(),
  preferred_locales: z.array(z.string()).optional(),
});

export const businessDetailsObject = z.object({
  name: z.string(),
  legal_address: z.union([legalAddressWithState, plainLegalAddress]).optional(),
});

const customerFields = {
  id: z.string(),
  channel_id: z.string().meta({ description: 'The channel the customer belongs to.' }),
  email: z.string(),
  first_name: z.string().optional(),
  last_name: z.string().optional(),
  phone: z.string().optional(),
  merchant_customer_id: z.string().optional(),
  address: addressObject.optional(),
  tax: taxObject,
  status: customerStatus,
  configuration: configurationObject.optional(),
  metadata: z.record(z.string(), z.string()).optional(),
  balances: z.record(z.string(), z.number().int()).optional().meta({
    description:
      'Extension (docs/customer-balance.md): the customer balance per currency, in minor units; negative is credit the merchant owes the customer, positive a debit. Left out while the customer has no balance transactions.',
  }),
  created_at: dateTime,
  updated_at: dateTime,
};

export const individualCustomerObject = z.object({ ...customerFields, type: z.literal('INDIVIDUAL') }).meta({ id: 'IndividualCustomer' });
export const businessCustomerObject = z
  .object({ ...customerFields, type: z.literal('BUSINESS'), business_details: businessDetailsObject })
  .meta({ id: 'BusinessCustomer' });

export const customerObject = z.discriminatedUnion('type', [individualCustomerObject, businessCustomerObject]).meta({ id: 'Customer' });

export type CustomerObject = z.infer<typeof customerObject>;
export type Address = z.infer<typeof addressObject>;
export type Tax = z.infer<typeof taxObject>;
export type Configuration = z.infer<typeof configurationObject>;
export type BusinessDetails = z.infer<typeof businessDetailsObject>;

import { z } from 'zod';
import { COUNTRY_CODES } from '../../domain/countries';
import { CURRENCY_CODES } from '../../domain/currencies';
import { STATE_SHAPE_COUNTRIES } from '../../domain/addresses';
import { canonicalLocale } from '../../domain/locales';
import { metadataObject } from '../common/metadata';
import { dateTime, prefixedId } from '../common/schemas';

/** Limits the spec leaves open (section 8), documented in docs/customers.md. */
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

const text = (max: number) => z.string().trim().min(1).regex(/\S/).max(max);

export const phone = text(40).meta({
  description:
    'Any form (section 2.2 gives none). A valid number, international or national in the country of the customer’s address, is stored and shown in E.164 (`+15551234567`); anything else as written, trimmed.',
});

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
 * The plain shape takes any country, so `state` is optional in every country; the address-with-
 * state shape is one such address that names its state.
 */
export const legalAddressRequest = z.strictObject({
  city: text(100),
  country,
  line1: text(200),
  line2: text(200).optional(),
  state: text(100).optional(),
  postal_code: text(20),
});

export const taxValidationRequest = z.strictObject({
  status: z.enum(['UNVERIFIED', 'VERIFIED']),
  validated_at: dateTime,
  source: z.enum(['VIES', 'MANUAL']).meta({ description: 'Merchants may set only MANUAL; VIES validations are made by the platform.' }),
});

/** What people write between the characters of a registration number (`DE 123.456-789`). */
const VAT_ID_SEPARATORS = /[\s.-]/g;

/** 2 to 20 letters and digits once the separators are left out; a pattern, so the OpenAPI document states it exactly. */
const VAT_ID_WRITTEN = /^[\s.-]*(?:[A-Za-z0-9][\s.-]*){2,20}$/;

export const taxRegistrationRequest = z.strictObject({
  scheme: z.enum(['VAT']),
  id: z
    .string()
    .max(60)
    .regex(VAT_ID_WRITTEN, { error: 'Expected 2 to 20 letters and digits; spaces, dots and hyphens between them are left out.' })
    .transform((id) => id.replace(VAT_ID_SEPARATORS, '').toUpperCase())
    .meta({ description: 'Registration number; spaces, dots and hyphens are left out, and it is stored in capitals (`DE 123.456-789` is `DE123456789`).' }),
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
  .object({ ...addressFields, country: z.enum(STATE_SHAPE_COUNTRIES), state: z.string() })
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
  metadata: metadataObject.optional(),
  balances: z.record(z.string(), z.number().int()).optional().meta({
    description:
      'Extension (docs/customer-balance.md): the customer balance per currency, in minor units; negative is credit the merchant owes the customer, positive a debit. Left out while the customer has no balance transactions.',
  }),
  created_at: dateTime,
  updated_at: dateTime,
};

export const individualCustomerObject = z.object({ ...customerFields, type: z.literal('INDIVIDUAL') }).meta({ id: 'IndividualCustomer' });
export const businessCustomerObject = z
  .object({ ...customerFields, type: z.literal('BUSINESS'), business_details: businessDetailsObject.optional() })
  .meta({ id: 'BusinessCustomer' });

export const customerObject = z.discriminatedUnion('type', [individualCustomerObject, businessCustomerObject]).meta({ id: 'Customer' });

export type CustomerObject = z.infer<typeof customerObject>;
export type Address = z.infer<typeof addressObject>;
export type Tax = z.infer<typeof taxObject>;
export type Configuration = z.infer<typeof configurationObject>;
export type BusinessDetails = z.infer<typeof businessDetailsObject>;

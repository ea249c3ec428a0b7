import { ApiError } from './errors';

/** Section 2.2: a tax registration of a customer, stored as the API shows it. */
export interface TaxValidation {
  status: 'UNVERIFIED' | 'VERIFIED';
  validated_at: string;
  source: 'VIES' | 'MANUAL';
}

export interface TaxRegistration {
  scheme: 'VAT';
  id: string;
  country: string;
  validation?: TaxValidation;
}

/** A registration is the same one when scheme, country and number agree. */
function sameRegistration(a: TaxRegistration, b: TaxRegistration): boolean {
  return a.scheme === b.scheme && a.country === b.country && a.id === b.id;
}

function sameValidation(a: TaxValidation, b: TaxValidation): boolean {
  return a.status === b.status && a.source === b.source && Date.parse(a.validated_at) === Date.parse(b.validated_at);
}

/**
 * A validation the merchant can no longer change: one the platform made (VIES), or one that
 * already says VERIFIED. Invoices may have been taxed on the strength of it.
 */
function isSettled(validation: TaxValidation): boolean {
  return validation.source === 'VIES' || validation.status === 'VERIFIED';
}

/**
 * The registrations a create or update leaves on the customer (docs/customers.md, "Tax
 * registrations"). For each requested registration:
 *
 * - no `validation` sent: the stored validation of the same registration, if any, is kept;
 * - the stored validation sent back unchanged (a GET round trip): kept;
 * - otherwise, a settled stored validation refuses the change
 *   (422 INVALID_TAX_REGISTRATION_VALIDATION_UPDATE), and a validation whose source is not
 *   MANUAL is refused (422 INVALID_TAX_REGISTRATION_VALIDATION_SOURCE): only the platform
 *   writes VIES validations.
 */
export function resolveTaxRegistrations(stored: readonly TaxRegistration[], requested: readonly TaxRegistration[]): TaxRegistration[] {
  return requested.map((registration, index) => {
    const current = stored.find((s) => sameRegistration(s, registration))?.validation;
    const { validation, ...identity } = registration;
    if (!validation) return current ? { ...identity, validation: current } : identity;
    if (current && sameValidation(current, validation)) return { ...identity, validation: current };
    const field = `tax.registrations[${index}].validation`;
    if (current && isSettled(current)) {
      throw new ApiError(
        'INVALID_TAX_REGISTRATION_VALIDATION_UPDATE',
        current.source === 'VIES'
          ? 'This registration was validated by VIES; its validation cannot be changed.'
          : 'This registration is VERIFIED; its validation cannot be changed.',
        { field, validation: current },
      );
    }
    if (validation.source !== 'MANUAL') {
      throw new ApiError(
        'INVALID_TAX_REGISTRATION_VALIDATION_SOURCE',
        'Only validations with source MANUAL can be set; VIES validations are made by the platform.',
        { field: `${field}.source`, source: validation.source },
      );
    }
    return { ...identity, validation };
  });
}

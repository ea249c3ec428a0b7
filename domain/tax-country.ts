/**
 * Tax is computed for the customer's country: a TAXABLE customer whose address has no country
 * cannot be charged tax (CUSTOMER_ADDRESS_COUNTRY_REQUIRED). Invoice finalization lists it among
 * its reasons; a subscription refuses taxed lines when they are given, not at the next cycle.
 */
export function lacksTaxCountry(customer: { tax: unknown; address: unknown }, chargesTax: boolean): boolean {
  const taxable = (customer.tax as { taxability?: string } | null)?.taxability === 'TAXABLE';
  const country = (customer.address as { country?: string } | null)?.country;
  return chargesTax && taxable && !country;
}

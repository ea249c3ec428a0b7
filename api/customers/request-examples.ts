import { EXAMPLE_IDS } from '../openapi/example-ids';
import type { RequestExample, ResourceRequestExamples } from '../openapi/operation-types';

const update = {
  id: EXAMPLE_IDS.customer,
  phone: '+4930901820',
  address: { line1: 'Friedrichstraße 68', city: 'Berlin', postal_code: '10117', country: 'DEU' },
  configuration: { default_payment_instrument_id: EXAMPLE_IDS.paymentInstrument, preferred_locales: ['de-DE', 'en'] },
} satisfies RequestExample<'customers', 'update'>;

export const customerRequestExamples = {
  create: {
    type: 'INDIVIDUAL',
    channel_id: EXAMPLE_IDS.channel,
    email: 'anna.schmidt@example.de',
    first_name: 'Anna',
    last_name: 'Schmidt',
    phone: '+4915112345678',
    merchant_customer_id: 'CRM-100482',
    address: { line1: 'Torstraße 109', line2: '3. OG', city: 'Berlin', postal_code: '10119', country: 'DEU' },
    tax: { taxability: 'TAXABLE' },
    configuration: { default_billing_currency: 'EUR', preferred_locales: ['de-DE'] },
    metadata: { signup_source: 'web-shop' },
  },
  get: { id: EXAMPLE_IDS.customer },
  list: { filters: { status: { operator: 'EQ', value: 'ACTIVE' }, name: { operator: 'STARTS_WITH', value: 'Schmidt' } }, pagination: { page_size: 20 } },
  update,
  patch: update,
} satisfies ResourceRequestExamples<'customers'>;

import type { ZodType } from 'zod';
import { hasPrefix } from '../../domain/ids';
import { storedPhoneNumber } from '../../domain/phone-numbers';
import { procedureTable } from '../../api/http/procedure-table';
import { openApiDocument } from '../../api/openapi/document';
import { appRouter } from '../../api/router';

/**
 * Issue 16 item 3: every operation's request example in the API reference is realistic and is a
 * request the operation takes: each parses with the operation's own zod input schema.
 */

const document: any = openApiDocument('http://localhost:3000');
const procedures = appRouter._def.procedures as unknown as Record<string, { _def: { inputs: ZodType[] } }>;
const operations = [...procedureTable(appRouter)];
const exampleOf = (operation: string) => document.paths[operation].post.requestBody?.content['application/json'].example;

describe('request examples', () => {
  it('every operation has one, and it parses with the operation’s input schema', () => {
    expect(operations.length).toBeGreaterThan(60);
    const failures = operations.flatMap(([operation, dotted]) => {
      const example = exampleOf(operation);
      if (example === undefined) return [`${operation}: no example`];
      const parsed = procedures[dotted]!._def.inputs[0]!.safeParse(example);
      return parsed.success ? [] : [`${operation}: ${parsed.error.issues.map((issue) => `${issue.path.join('.')} ${issue.message}`).join('; ')}`];
    });
    expect(failures).toEqual([]);
  });

  it('reads as real data: a named customer with an address, an alpha-3 country and an E.164 phone', () => {
    const customer = exampleOf('/v2/customers/create');
    expect(customer).toMatchObject({ type: 'INDIVIDUAL', first_name: 'Anna', last_name: 'Schmidt', address: { city: 'Berlin', country: 'DEU' } });
    expect(customer.email).toMatch(/^[a-z.]+@example\.de$/);
    expect(storedPhoneNumber(customer.phone, customer.address.country)).toBe(customer.phone);
    expect(hasPrefix('channel', customer.channel_id)).toBe(true);
  });

  it('an invoice has line items in integer minor units, ids with their kind’s prefix', () => {
    const invoice = exampleOf('/v2/invoices/create');
    expect(hasPrefix('customer', invoice.customer_id)).toBe(true);
    expect(invoice.line_items.length).toBeGreaterThan(1);
    for (const line of invoice.line_items) expect(Number.isInteger(line.amount ?? 0) && line.quantity >= 1).toBe(true);
    expect(hasPrefix('invoice', exampleOf('/v2/invoices/pay').id)).toBe(true);
    expect(hasPrefix('paymentInstrument', exampleOf('/v2/invoices/pay').payment_instrument_id)).toBe(true);
    expect(hasPrefix('subscription', exampleOf('/v2/subscriptions/cancel').id)).toBe(true);
    expect(hasPrefix('webhookEndpoint', exampleOf('/v2/webhooks/get').id)).toBe(true);
  });

  it('no example is a generated placeholder', () => {
    const placeholders = operations.map(([operation]) => operation).filter((operation) => /01example|"example"/.test(JSON.stringify(exampleOf(operation))));
    expect(placeholders).toEqual([]);
  });
});

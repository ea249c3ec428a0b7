import type Stripe from 'stripe';
import type { Database } from '../../prisma/client';
import type { CustomerRow } from '../customers/repository';
import { askStripe } from './stripe-refusals';

/**
 * The Stripe Customer that mirrors one of ours, which its cards are attached to and charged
 * through (docs/payment-instruments.md, "attach"): created once, then read from stripe_customers.
 *
 * Stripe is asked outside any transaction, under the idempotency key `bp-customer/<id>`, so
 * concurrent or repeated first attaches get the one Stripe Customer from Stripe; the row is
 * inserted ON CONFLICT DO NOTHING and the row that won is used either way. An emulator that
 * ignores Idempotency-Key (localstripe) can then leave a second Stripe Customer behind, with no
 * card and never charged: harmless, and named in the docs.
 */
export async function stripeCustomerMirror(db: Database, stripe: Stripe, accountId: string, customer: CustomerRow, now: Date): Promise<string> {
  const existing = await db.stripeCustomer.findUnique({ where: { customerId: customer.id }, select: { stripeCustomerId: true } });
  if (existing) return existing.stripeCustomerId;
  const name = mirroredName(customer);
  const created = await askStripe(
    () =>
      stripe.customers.create(
        { email: customer.email, ...(name ? { name } : {}), metadata: { bp_customer_id: customer.id, bp_account_id: accountId } },
        { idempotencyKey: `bp-customer/${customer.id}` },
      ),
    'customer_id',
    customer.id,
  );
  await db.stripeCustomer.createMany({
    data: [{ customerId: customer.id, accountId, stripeCustomerId: created.id, createdAt: now }],
    skipDuplicates: true,
  });
  const winner = await db.stripeCustomer.findUniqueOrThrow({ where: { customerId: customer.id }, select: { stripeCustomerId: true } });
  return winner.stripeCustomerId;
}

/** What Stripe's dashboard shows for the customer: the business name, else the person's. */
function mirroredName(customer: CustomerRow): string | undefined {
  const business = (customer.businessDetails as { name?: string } | null)?.name;
  if (business) return business;
  const person = [customer.firstName, customer.lastName].filter((part) => part !== null).join(' ');
  return person || undefined;
}

import { newId } from '../../domain/ids';
import type { Database } from '../../prisma/client';

export interface Payer {
  customerId: string;
  instrumentId: string;
  /** A Stripe card's ids at Stripe: its PaymentMethod and the customer's Stripe mirror. */
  stripe?: { paymentMethod: string; customer: string };
}

/** Sandbox cards approve by scenario; Stripe cards are charged at the account's Stripe (or an emulator of it). */
export type PayerCards = 'sandbox' | 'stripe';

/**
 * Customers with an approved test card, written as tokenize would leave them (a thousand to a
 * statement) but without their expiry workflows: the benches seed before, or without, a Temporal
 * server. Stripe cards are held as payment-instruments/attach records them, with ids no Stripe
 * has seen: only a stateless emulator (stripe-mock) charges them.
 */
export async function seedPayers(db: Database, accountId: string, channelId: string, count: number, cards: PayerCards = 'sandbox'): Promise<Payer[]> {
  const now = new Date();
  const payers: Payer[] = Array.from({ length: count }, (_, i) => ({
    customerId: newId('customer'),
    instrumentId: newId('paymentInstrument'),
    ...(cards === 'stripe' ? { stripe: { paymentMethod: `pm_bench${i}`, customer: `cus_bench${i}` } } : {}),
  }));
  for (let from = 0; from < count; from += 1000) {
    const batch = payers.slice(from, from + 1000);
    await db.customer.createMany({
      data: batch.map((p, i) => ({
        id: p.customerId,
        accountId,
        channelId,
        type: 'INDIVIDUAL',
        email: `payer${from + i}@example.com`,
        tax: { taxability: 'TAXABLE' },
        status: 'ACTIVE',
        createdAt: now,
        updatedAt: now,
      })),
    });
    await db.paymentInstrument.createMany({
      data: batch.map((p, i) => ({
        id: p.instrumentId,
        accountId,
        channelId,
        customerId: p.customerId,
        type: 'CARD',
        brand: 'VISA',
        last4: '4242',
        expMonth: 12,
        expYear: now.getUTCFullYear() + 3,
        fingerprint: `payer-${from + i}`,
        sandboxScenario: p.stripe ? null : 'APPROVE',
        ...(p.stripe ? { provider: 'stripe', providerReference: p.stripe.paymentMethod, providerCustomerReference: p.stripe.customer } : {}),
        status: 'ACTIVE',
        createdAt: now,
        updatedAt: now,
      })),
    });
  }
  return payers;
}

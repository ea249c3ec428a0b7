import { newId } from '../../domain/ids';
import type { Database } from '../../prisma/client';

export interface Payer {
  customerId: string;
  instrumentId: string;
}

/**
 * Customers with an approved test card, written as tokenize would leave them (a thousand to a
 * statement) but without their expiry workflows: the benches seed before, or without, a Temporal
 * server.
 */
export async function seedPayers(db: Database, accountId: string, channelId: string, count: number): Promise<Payer[]> {
  const now = new Date();
  const payers = Array.from({ length: count }, () => ({ customerId: newId('customer'), instrumentId: newId('paymentInstrument') }));
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
        sandboxScenario: 'APPROVE',
        status: 'ACTIVE',
        createdAt: now,
        updatedAt: now,
      })),
    });
  }
  return payers;
}

import { newId } from '../../domain/ids';
import type { Database } from '../../prisma/client';

export interface Payer {
  customerId: string;
  instrumentId: string;
}

/**
 * Customers with an approved test card, written with Prisma as tokenize would leave
 * them: tokenize starts the card's expiry workflow, and this run has no Temporal server.
 */
export async function seedPayers(db: Database, accountId: string, channelId: string, count: number): Promise<Payer[]> {
  const now = new Date();
  const payers: Payer[] = [];
  for (let n = 0; n < count; n++) {
    const customerId = newId('customer');
    const instrumentId = newId('paymentInstrument');
    await db.customer.create({
      data: { id: customerId, accountId, channelId, type: 'INDIVIDUAL', email: `bench${n}@example.com`, tax: { taxability: 'TAXABLE' }, status: 'ACTIVE', createdAt: now, updatedAt: now },
    });
    await db.paymentInstrument.create({
      data: {
        id: instrumentId,
        accountId,
        channelId,
        customerId,
        type: 'CARD',
        brand: 'VISA',
        last4: '4242',
        expMonth: 12,
        expYear: now.getUTCFullYear() + 3,
        fingerprint: `bench-${n}`,
        sandboxScenario: 'APPROVE',
        status: 'ACTIVE',
        createdAt: now,
        updatedAt: now,
      },
    });
    payers.push({ customerId, instrumentId });
  }
  return payers;
}

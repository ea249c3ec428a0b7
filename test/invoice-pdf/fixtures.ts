import { newId } from '../../domain/ids';
import type { Prisma } from '../../prisma/client';
import type { Platform } from '../support/platform';

export interface LineFixture {
  description?: string;
  amount: number;
  quantity: number;
  discount?: number;
  tax?: { mode: 'EXCLUSIVE' | 'INCLUSIVE'; rate: string; amount: number };
}

export interface InvoiceFixture {
  status?: string;
  currency?: string;
  lines?: LineFixture[];
  amountPaid?: number;
  amountRefunded?: number;
  notes?: string;
  snapshot?: Prisma.InputJsonObject | null;
  deletedAt?: Date;
}

/**
 * An invoice written straight into the database, as the lifecycle operations leave it, so the
 * PDF route is tested on its own. Amounts follow domain/invoice-amounts.ts: taxable =
 * subtotal − discount, line total = taxable + exclusive tax, the invoice sums its lines.
 */
export async function insertInvoice(platform: Platform, fixture: InvoiceFixture = {}): Promise<string> {
  const { db } = platform;
  const now = new Date('2026-03-01T09:30:00Z');
  const currency = fixture.currency ?? 'EUR';
  const lines = (fixture.lines ?? [{ description: 'Widget', amount: 1234, quantity: 1 }]).map((line) => {
    const subtotal = line.amount * line.quantity;
    const discount = line.discount ?? 0;
    const taxable = subtotal - discount;
    const taxAmount = line.tax?.amount ?? 0;
    return { ...line, subtotal, discount, taxable, taxAmount, total: taxable + (line.tax?.mode === 'EXCLUSIVE' ? taxAmount : 0) };
  });
  const sum = (key: 'subtotal' | 'discount' | 'taxable' | 'taxAmount' | 'total') => lines.reduce((total, line) => total + line[key], 0);
  const total = sum('total');
  const paid = fixture.amountPaid ?? 0;
  const status = fixture.status ?? 'OPEN';

  const customer = await db.customer.create({
    data: {
      id: newId('customer'),
      accountId: platform.accountId,
      channelId: platform.channelIds[0],
      type: 'INDIVIDUAL',
      // The customer has changed since: the PDF must show the snapshot frozen at finalization.
      email: 'changed-since@example.com',
      firstName: 'Changed',
      tax: { taxability: 'TAXABLE' },
      status: 'ACTIVE',
      createdAt: now,
      updatedAt: now,
    },
  });
  const snapshot =
    fixture.snapshot === undefined
      ? {
          id: customer.id,
          first_name: 'Ada',
          last_name: 'Lovelace',
          email: 'ada@example.com',
          phone: '+442071234567',
          address: { line1: '12 St James Sq', city: 'London', postal_code: 'SW1Y 4JH', country: 'GBR' },
          tax: { taxability: 'TAXABLE' },
        }
      : fixture.snapshot;
  const id = newId('invoice');
  await db.invoice.create({
    data: {
      id,
      accountId: platform.accountId,
      channelId: platform.channelIds[0],
      customerId: customer.id,
      status,
      currency,
      totalAmount: total,
      amountDue: total - paid,
      amountPaid: paid,
      amountRefunded: fixture.amountRefunded ?? 0,
      amountDetails: { subtotal: sum('subtotal'), discount: sum('discount'), taxable: sum('taxable'), tax: sum('taxAmount') },
      discounts: [],
      ...(snapshot ? { customerSnapshot: snapshot } : {}),
      billingReason: 'MANUAL',
      collectionMethod: 'SEND_INVOICE',
      dueAt: new Date('2026-03-31T00:00:00Z'),
      notes: fixture.notes ?? null,
      finalizedAt: status === 'DRAFT' ? null : now,
      deletedAt: fixture.deletedAt ?? null,
      createdAt: now,
      updatedAt: now,
      lineItems: {
        create: lines.map((line, position) => ({
          id: newId('invoiceLineItem'),
          position,
          description: line.description ?? null,
          amount: line.amount,
          currency,
          quantity: line.quantity,
          taxMode: line.tax?.mode ?? null,
          taxRate: line.tax?.rate ?? null,
          subtotal: line.subtotal,
          discount: line.discount,
          taxable: line.taxable,
          tax: line.taxAmount,
          createdAt: now,
        })),
      },
    },
  });
  return id;
}

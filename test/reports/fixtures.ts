import Papa from 'papaparse';
import { newId } from '../../domain/ids';
import type { Platform } from '../support/platform';

/** Merchant steps over the real API and the report round trip: create, wait, download. */
export function reports(platform: Platform) {
  async function ok(path: string, body: unknown, secret?: string) {
    const res = await platform.call(`/v2/${path}`, body, secret ? { secret } : {});
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  }

  /** POST without following redirects: the 303 itself is what is under test. */
  async function download(id: string, secret = platform.rootSecret) {
    const response = await fetch(`${platform.baseUrl}/v2/reports/download`, {
      method: 'POST',
      redirect: 'manual',
      headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
      body: JSON.stringify({ id }),
    });
    return { status: response.status, headers: response.headers, body: (await response.json()) as any };
  }

  async function waitForStatus(id: string, status: string, timeoutMs = 30_000) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const report = await platform.db.report.findUnique({ where: { id } });
      if (report?.status === status) return report;
      if (Date.now() > deadline) throw new Error(`Report ${id} is ${report?.status}, not ${status}.`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** Creates a report, waits until it is written, downloads it through the 303 and parses it. */
  async function csvOf(body: Record<string, unknown>, secret?: string) {
    const report = await ok('reports/create', body, secret);
    await waitForStatus(report.id, 'SUCCEEDED');
    const redirect = await download(report.id, secret);
    if (redirect.status !== 303) throw new Error(`download: ${redirect.status} ${JSON.stringify(redirect.body)}`);
    const file = await fetch(redirect.headers.get('location')!);
    const text = await file.text();
    const parsed = Papa.parse<Record<string, string>>(text, { header: true, skipEmptyLines: true });
    return { report, text, rows: parsed.data, errors: parsed.errors, response: file };
  }

  return { ok, download, waitForStatus, csvOf };
}

/** Moves a record's creation to an exact moment, microseconds included. */
export async function setCreatedAt(platform: Platform, table: 'invoices' | 'subscriptions', id: string, at: string) {
  await platform.db.$executeRawUnsafe(`UPDATE ${table} SET created_at = $1::timestamptz WHERE id = $2`, at, id);
}

export interface SubscriptionFixture {
  channelId: string;
  customerId: string;
  createdAt: Date;
  lines: number;
  full?: boolean;
}

/** A subscription as the subscriptions part stores it, written directly (this part only reads them). */
export async function insertSubscription(platform: Platform, fixture: SubscriptionFixture): Promise<string> {
  const id = newId('subscription');
  const at = fixture.createdAt;
  const later = new Date(at.getTime() + 3_600_000);
  await platform.db.subscription.create({
    data: {
      id,
      accountId: platform.accountId,
      channelId: fixture.channelId,
      customerId: fixture.customerId,
      status: fixture.full ? 'TRIALING' : 'ACTIVE',
      currency: 'EUR',
      ...(fixture.full
        ? {
            paymentInstrumentId: 'pi_fixture',
            latestInvoiceId: 'inv_fixture',
            description: 'Gold plan, "annual"',
            merchantReference: 'SUB-1',
            metadata: { plan: 'gold', seats: '5' },
            discounts: [{ coupon_id: '0190c3a8-0000-7000-8000-000000000001', coupon_code: 'WELCOME', calculation_type: 'PERCENTAGE', calculation_value: 15 }],
            trialInfo: {
              type: 'PAID',
              amount: 100,
              period: { start_at: '2026-01-05T00:00:00.000000Z', end_at: '2026-01-19T00:00:00.000000Z' },
              period_config: { value: 14, unit: 'DAY' },
            },
            cancellationInfo: {
              cancel_at: '2026-03-05T00:00:00.000000Z',
              requested_at: '2026-01-06T08:00:00.000000Z',
              reason: 'CANCELLATION_REQUESTED',
              comment: 'Too expensive, sorry',
              mode: 'PERIOD_END',
            },
            startedAt: at,
            nextBillingAt: new Date('2026-02-05T00:00:00Z'),
            anchorAt: new Date('2026-01-05T00:00:00Z'),
          }
        : {}),
      createdAt: at,
      updatedAt: later,
      lineItems: {
        create: Array.from({ length: fixture.lines }, (_, position) => ({
          id: newId('subscriptionLineItem'),
          position,
          productId: '0190c3a8-0000-7000-8000-00000000000a',
          productPriceId: `0190c3a8-0000-7000-8000-00000000010${position}`,
          productName: `Seat ${position}`,
          productDescription: position === 0 ? 'The first seat' : null,
          billingType: position === 0 ? 'RECURRING' : 'ONE_TIME',
          currency: 'EUR',
          amount: 1000 + position,
          quantity: position + 1,
          startedAt: position === 0 ? at : null,
          periodStartAt: at,
          periodEndAt: position === 0 ? new Date('2026-02-05T00:00:00Z') : null,
          billingPeriodValue: position === 0 ? 1 : null,
          billingPeriodUnit: position === 0 ? 'MONTH' : null,
          createdAt: at,
          updatedAt: later,
        })),
      },
    },
  });
  return id;
}

import { recordEvent } from '../../prisma/outbox';
import { createAccount } from '../../scripts/operator/accounts';
import { createTestDatabase, type TestDatabase } from '../support/database';

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});

afterAll(() => database?.drop());

describe('transactional outbox', () => {
  it('commits an event with the change it reports', async () => {
    const { db } = database;
    const account = await createAccount(db, 'outbox');
    const envelope = await db.$transaction(async (tx) => {
      await tx.channel.create({ data: { id: 'chn_outbox1', accountId: account.id, name: 'web' } });
      return recordEvent(tx, {
        accountId: account.id,
        name: 'CustomerCreated',
        data: { customer: { id: 'cust_1' } },
        occurredAt: new Date('2026-11-21T10:00:00.000Z'),
      });
    });
    expect(envelope).toEqual({
      event_id: expect.stringMatching(/^evt_/),
      event_type: 'CUSTOMER_CREATED',
      occurred_at: '2026-11-21T10:00:00.000000Z',
      data: { customer: { id: 'cust_1' } },
    });
    const stored = await db.outboxEvent.findUniqueOrThrow({ where: { id: envelope.event_id } });
    expect(stored).toMatchObject({
      accountId: account.id,
      channelId: null,
      eventType: 'CUSTOMER_CREATED',
      occurredAt: new Date('2026-11-21T10:00:00.000Z'),
      dispatchedAt: null,
      data: { customer: { id: 'cust_1' } },
    });
    expect(Math.abs(stored.createdAt.getTime() - Date.now())).toBeLessThan(60_000);
  });

  it('stores the channel, and data with nested values, quotes and unicode as given', async () => {
    const { db } = database;
    const account = await createAccount(db, 'outbox-data');
    await db.channel.create({ data: { id: 'chn_outbox2', accountId: account.id, name: 'web' } });
    const data = { invoice: { id: 'inv_1', total: 1_999, notes: 'say "hi" – ünïcode', lines: [{ amount: 5, tax: null }] } };
    const envelope = await db.$transaction((tx) =>
      recordEvent(tx, { accountId: account.id, channelId: 'chn_outbox2', name: 'InvoicePaid', data, occurredAt: new Date('2026-11-25T03:00:00.123Z') }),
    );
    const stored = await db.outboxEvent.findUniqueOrThrow({ where: { id: envelope.event_id } });
    expect(stored).toMatchObject({ channelId: 'chn_outbox2', eventType: 'INVOICE_PAID', occurredAt: new Date('2026-11-25T03:00:00.123Z'), data });
    expect(envelope.data).toEqual(data);
  });

  it('loses the event with a change that rolls back', async () => {
    const { db } = database;
    const account = await createAccount(db, 'rollback');
    await expect(
      db.$transaction(async (tx) => {
        await recordEvent(tx, { accountId: account.id, name: 'CustomerUpdated', data: {}, occurredAt: new Date() });
        await tx.channel.create({ data: { id: 'chn_dup', accountId: account.id, name: 'a' } });
        await tx.channel.create({ data: { id: 'chn_dup', accountId: account.id, name: 'b' } });
      }),
    ).rejects.toThrow();
    expect(await db.outboxEvent.count({ where: { accountId: account.id } })).toBe(0);
    expect(await db.channel.count({ where: { accountId: account.id } })).toBe(0);
  });
});

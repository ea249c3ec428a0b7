import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Client as TemporalClient } from '@temporalio/client';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { SecretCache } from '../../api/auth/secret-cache';
import { buildServer } from '../../api/http/server';
import { RateLimiter } from '../../api/rate-limit/token-bucket';
import { createAccount, createChannel, createOperatorApiKey } from '../../scripts/operator/accounts';
import { EVENT_TYPES } from '../../domain/event-catalogue';
import { createTestDatabase, type TestDatabase } from '../support/database';

/**
 * The database round trips of the hot requests (docs/benchmarks.md, bench:latency): every
 * statement the API sends, BEGIN and COMMIT included, counted at the `pg` client. The API runs
 * on its own here (no worker, whose outbox dispatcher would send statements of its own), with
 * the secret cached as in production.
 */
let database: TestDatabase;
let app: FastifyInstance;
let baseUrl: string;
let secret: string;
let customerId: string;
const started: string[] = [];

beforeAll(async () => {
  process.env.URL_SIGNING_KEY ??= randomBytes(32).toString('hex');
  process.env.SECRETS_KEY ??= randomBytes(32).toString('hex');
  database = await createTestDatabase();
  const { db } = database;
  const account = await createAccount(db, 'Round trips');
  await createChannel(db, account.id, 'one');
  ({ secret } = await createOperatorApiKey(db, { accountId: account.id, name: 'root' }));
  app = buildServer({
    db,
    // SEND_INVOICE invoices start no workflow; subscriptions/create's start is recorded, not sent.
    temporal: { workflow: { start: async (_workflow: string, options: { workflowId: string }) => void started.push(options.workflowId) } } as unknown as TemporalClient,
    rateLimiter: new RateLimiter(() => ({ ratePerSecond: 1e6, burst: 1e6 })),
    secretCache: new SecretCache(60 * 60 * 1000),
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  customerId = (await post('customers/create', { type: 'INDIVIDUAL', email: 'ada@example.com', address: { country: 'DEU' } })).body.id;
});

afterAll(async () => {
  await app?.close();
  await database?.drop();
});

async function post(path: string, body: unknown) {
  const response = await fetch(`${baseUrl}/v2/${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as any };
}

/** The request's answer and the statements it sent, in order. */
async function counted(path: string, body: unknown) {
  const sent: string[] = [];
  const original = pg.Client.prototype.query;
  const spy = jest.spyOn(pg.Client.prototype, 'query').mockImplementation(function (this: pg.Client, ...args: unknown[]) {
    const [query] = args as [string | { text: string }];
    sent.push((typeof query === 'string' ? query : query.text).trim().split(/\s+/).slice(0, 4).join(' '));
    return (original as (...a: unknown[]) => unknown).apply(this, args) as never;
  });
  try {
    const response = await post(path, body);
    expect(response.status).toBe(200);
    return { body: response.body, sent };
  } finally {
    spy.mockRestore();
  }
}

const newDraft = () => ({ customer_id: customerId, currency: 'EUR', line_items: [{ amount: 1_999, description: 'One', quantity: 2 }, { amount: 5, description: 'Two', quantity: 1 }] });

describe('round trips per request', () => {
  it('customers/get: one statement, the customer with its balances', async () => {
    const { body, sent } = await counted('customers/get', { id: customerId });
    expect(sent).toEqual(['SELECT c.id, c.channel_id AS']);
    expect(body).toMatchObject({ id: customerId, email: 'ada@example.com', address: { country: 'DEU' } });
  });

  it('api-keys/get: one statement, the key (its secret is cached)', async () => {
    const key = (await post('api-keys/create', { name: 'counted', permissions: ['invoices:get'] })).body;
    const { body, sent } = await counted('api-keys/get', { id: key.id });
    expect(sent).toEqual(['SELECT id, name, description,']);
    expect(body).toMatchObject({ id: key.id, name: 'counted', permissions: ['invoices:get'], channel_ids: [], status: 'ACTIVE' });
  });

  it('invoices/get: one statement, the invoice with its lines and, for a draft, its live customer', async () => {
    const draft = (await post('invoices/create', newDraft())).body;
    const { body, sent } = await counted('invoices/get', { id: draft.id });
    expect(sent).toEqual(['SELECT i.id, i.account_id AS']);
    expect(body).toEqual(draft);
  });

  it('invoices/create: one transaction of two statements (the customer; the invoice, its lines and the event in one insert), answered from the row it wrote', async () => {
    const { body: created, sent } = await counted('invoices/create', newDraft());
    expect(sent).toHaveLength(4);
    expect(sent[0]).toBe('BEGIN');
    expect(sent[2]).toBe('WITH invoice AS (');
    expect(sent[3]).toBe('COMMIT');
    expect((await post('invoices/get', { id: created.id })).body).toEqual(created);
    expect(created.line_items.map((line: { description: string }) => line.description)).toEqual(['One', 'Two']);
  });

  it('invoices/finalize: the update writes its event too, and its lines are not read again', async () => {
    const draft = (await post('invoices/create', newDraft())).body;
    const { body: finalized, sent } = await counted('invoices/finalize', { id: draft.id });
    // BEGIN, lock, the invoice with its lines and live customer, the customer balance locked, the update with its event, COMMIT
    expect(sent).toHaveLength(6);
    expect(sent[4]).toBe('WITH saved AS (UPDATE');
    expect(finalized.status).toBe('OPEN');
    // The event carries the invoice as answered, built before the statement wrote either.
    const events = await database.db.outboxEvent.findMany({ where: { eventType: EVENT_TYPES.InvoiceFinalized, data: { path: ['invoice', 'id'], equals: draft.id } } });
    expect(events.map((event) => event.data)).toEqual([{ invoice: finalized }]);
    // The PDF link is signed with an expiry counted from each answer: two answers a second apart differ there only.
    const { pdf_url: readLink, ...read } = (await post('invoices/get', { id: draft.id })).body;
    const { pdf_url: finalizedLink, ...answered } = finalized;
    expect(read).toEqual(answered);
    expect(readLink.split('?')[0]).toBe(finalizedLink.split('?')[0]);
  });

  it('invoices/delete: the same for a change of columns', async () => {
    const draft = (await post('invoices/create', newDraft())).body;
    const { body, sent } = await counted('invoices/delete', { id: draft.id });
    // BEGIN, lock, the invoice with its lines and live customer, UPDATE … RETURNING, event, COMMIT
    expect(sent).toHaveLength(6);
    expect(body).toEqual({ id: draft.id, deleted: true });
    expect((await post('invoices/get', { id: draft.id })).status).toBe(404);
  });

  it('subscriptions/create: the customer and the prices read side by side over the pool, then one transaction of two statements (the start lock; the row, lines, status and events in one insert) beside its workflow start', async () => {
    const product = (await post('products/create', { name: 'Counted plan' })).body;
    const price = (await post('product-prices/create', { product_id: product.id, currency: 'EUR', amount: 990, billing_type: 'RECURRING', billing_period_config: { value: 1, unit: 'MONTH' } })).body;
    const { body, sent } = await counted('subscriptions/create', { customer_id: customerId, line_items: [{ product_price_id: price.id, quantity: 2 }], metadata: { plan: 'counted' } });
    // Both reads are sent before either answers: which reaches the pool first is not fixed.
    expect(sent.slice(0, 2).sort()).toEqual(['SELECT id, channel_id AS', 'SELECT p.id, p.currency, p.amount,']);
    expect(sent.slice(2)).toEqual(['BEGIN', 'SELECT true AS locked', 'WITH subscription AS (', 'COMMIT']);
    expect(started).toEqual([`${body.id}/lifecycle`]);
    // Answered from the row built in memory: as a later read serializes what was stored.
    expect((await post('subscriptions/get', { id: body.id })).body).toEqual(body);
    const [stored] = await database.db.subscription.findMany({ where: { id: body.id }, include: { lineItems: true, statusChanges: true } });
    expect(stored).toMatchObject({ status: body.status, collectionMethod: 'SEND_INVOICE', metadata: { plan: 'counted' }, lineItems: [{ productPriceId: price.id, quantity: 2 }], statusChanges: [{ fromStatus: null, toStatus: body.status }] });
    expect(await database.db.outboxEvent.count({ where: { eventType: 'SUBSCRIPTION_CREATED', data: { path: ['subscription', 'id'], equals: body.id } } })).toBe(1);
  });

  it('subscriptions/get: one statement, the subscription with its lines in order', async () => {
    // The read model as a workflow leaves it; subscriptions/get starts nothing.
    const [account] = await database.db.account.findMany({ select: { id: true }, take: 1 });
    const channel = await database.db.channel.findFirstOrThrow({ where: { accountId: account!.id }, select: { id: true } });
    const id = 'subs_01roundtrips00000000000000';
    const at = new Date('2026-11-24T10:00:00.000Z');
    await database.db.subscription.create({
      data: {
        id,
        accountId: account!.id,
        channelId: channel.id,
        customerId,
        status: 'ACTIVE',
        currency: 'EUR',
        startedAt: at,
        nextBillingAt: new Date('2026-12-24T10:00:00.000Z'),
        settings: { on_dunning_exhausted: 'CANCEL' },
        cycleCount: 1,
        version: 2,
        createdAt: at,
        updatedAt: at,
        lineItems: {
          create: [1, 0].map((position) => ({
            id: `slit_01roundtrips000000000000${position}`,
            position,
            productId: 'prod_1',
            productPriceId: `0190c3a8-0000-7000-8000-00000000000${position}`,
            productName: `Plan ${position}`,
            billingType: 'RECURRING',
            currency: 'EUR',
            amount: 1_000 + position,
            quantity: 1,
            periodStartAt: at,
            periodEndAt: new Date('2026-12-24T10:00:00.000Z'),
            billingPeriodValue: 1,
            billingPeriodUnit: 'MONTH',
            ...(position === 1 ? { taxMode: 'EXCLUSIVE', taxRate: '7.25', taxCategoryId: 'taxc_reduced' } : {}),
            createdAt: at,
            updatedAt: at,
          })),
        },
      },
    });
    const { body, sent } = await counted('subscriptions/get', { id });
    expect(sent).toEqual(['SELECT s.id, s.account_id AS']);
    expect(body).toMatchObject({ id, status: 'ACTIVE', currency: 'EUR' });
    expect(body.line_items.map((line: { id: string }) => line.id)).toEqual(['slit_01roundtrips0000000000000', 'slit_01roundtrips0000000000001']);
  });
});

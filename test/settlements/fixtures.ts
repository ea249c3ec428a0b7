import type { temporal } from '@temporalio/proto';
import { Worker } from '@temporalio/worker';
import { Readable } from 'node:stream';
import Papa from 'papaparse';
import { createActivities, type Activities } from '../../activities';
import { fileStorageFromEnv } from '../../services/files/storage-from-env';
import type { FileStorage } from '../../services/files/storage';
import { newId } from '../../domain/ids';
import { settlementFileKey } from '../../domain/settlement-files';
import type { Database } from '../../prisma/client';
import { TASK_QUEUE } from '../../domain/workflow-ids';
import { createLegalEntity, assignLegalEntity } from '../../scripts/operator/legal-entities';
import type { Platform } from '../support/platform';
import { merchant } from '../invoices-payments/fixtures';

/** Test cards: the default route charges the first at sandbox-alpha, the second at sandbox-beta (docs/sandbox.md). */
export const AT_ALPHA = '4242424242424242';
export const AT_BETA = '4000000000003220';

export interface Paid {
  invoiceId: string;
  paymentId: string;
  provider: string;
  chargeId: string;
}

/** Money moved through the real API, and the provider books it leaves behind. */
export function moneyFlows(platform: Platform) {
  const m = merchant(platform);

  /** A one-line invoice of `amount` in `currency`, paid by a new customer of `channelId` with `card`. */
  async function paidInvoice(channelId: string, currency: string, amount: number, card: string): Promise<Paid> {
    const customerId = await m.customer(channelId);
    const instrumentId = await m.card(customerId, card);
    const draft = await m.ok('invoices/create', { customer_id: customerId, currency, line_items: [{ amount, description: 'Goods', quantity: 1 }] });
    await m.ok('invoices/finalize', { id: draft.id });
    const paid = await m.ok('invoices/pay', { id: draft.id, payment_instrument_id: instrumentId });
    if (paid.payment.status !== 'SUCCEEDED') throw new Error(`Payment ${paid.payment.id} ${paid.payment.status}`);
    const payment = await platform.db.payment.findUniqueOrThrow({ where: { id: paid.payment.id } });
    return { invoiceId: draft.id, paymentId: payment.id, provider: payment.provider!, chargeId: payment.providerChargeId! };
  }

  /** Refunds `amount` of the invoice; returns the provider's refund id. */
  async function refund(invoiceId: string, amount: number): Promise<string> {
    const body = await m.ok('invoices/refund', { id: invoiceId, amount });
    const row = await platform.db.refund.findUniqueOrThrow({ where: { id: body.refund.id } });
    return row.providerRefundId!;
  }

  /**
   * The sandbox books record the wall-clock time of each request; a test places its charges and
   * refunds on the day it settles by moving that time, as a provider's books would show it.
   */
  async function bookAt(at: string, ids: { charges?: string[]; refunds?: string[] }): Promise<void> {
    if (ids.charges?.length) await platform.db.sandboxProviderCharge.updateMany({ where: { id: { in: ids.charges } }, data: { createdAt: new Date(at) } });
    if (ids.refunds?.length) await platform.db.sandboxProviderRefund.updateMany({ where: { id: { in: ids.refunds } }, data: { createdAt: new Date(at) } });
  }

  async function legalEntity(channelId: string | null, name: string, country = 'DEU'): Promise<string> {
    const entity = await createLegalEntity(platform.db, { accountId: platform.accountId, name, country });
    if (channelId) await assignLegalEntity(platform.db, channelId, entity.id);
    return entity.id;
  }

  return { ...m, paidInvoice, refund, bookAt, legalEntity };
}

let runs = 0;

/** Runs the settlement workflow for `day` as the Schedule would, under a fresh workflow id. */
export function settle(platform: Platform, day: string) {
  runs += 1;
  return platform.env.client.workflow.execute('settlementWorkflow', {
    taskQueue: TASK_QUEUE,
    workflowId: `test/settlements/${day}/${runs}`,
    args: [{ day }],
  });
}

export async function download(url: string): Promise<{ status: number; contentType: string | null; rows: Record<string, string>[] }> {
  const response = await fetch(url);
  const text = await response.text();
  const parsed = Papa.parse<Record<string, string>>(text, { header: true, skipEmptyLines: true });
  return { status: response.status, contentType: response.headers.get('content-type'), rows: parsed.data };
}

/**
 * A charge in a provider's books and the payment it belongs to, as the charge path leaves them,
 * written directly: for accounts the test has no API key of, or a worker without the API.
 */
export async function bookedPayment(
  db: Database,
  p: { accountId: string; channelId: string; provider: string; amount: number; fee: number; currency: string; at: string },
): Promise<{ paymentId: string; chargeId: string }> {
  const paymentId = newId('payment');
  const chargeId = newId('sandboxCharge');
  const at = new Date(p.at);
  await db.sandboxProviderCharge.create({
    data: { id: chargeId, provider: p.provider, idempotencyKey: `${paymentId}/${p.provider}`, amount: p.amount, currency: p.currency, fee: p.fee, outcome: 'APPROVED', createdAt: at },
  });
  await db.payment.create({
    data: {
      id: paymentId,
      accountId: p.accountId,
      channelId: p.channelId,
      customerId: 'cust_booked',
      instrumentId: 'pi_booked',
      idempotencyKey: paymentId,
      amount: p.amount,
      currency: p.currency,
      status: 'SUCCEEDED',
      provider: p.provider,
      providerChargeId: chargeId,
      fee: p.fee,
      attempts: [],
      createdAt: at,
      updatedAt: at,
    },
  });
  return { paymentId, chargeId };
}

/**
 * Runs a workflow to its end, following continue-as-new, and returns its result with the
 * history length of each run it took.
 */
export async function executeInRuns(platform: Platform, workflowType: string, workflowId: string, args: unknown[], taskQueue = TASK_QUEUE) {
  const client = platform.env.client.workflow;
  const handle = await client.start(workflowType, { taskQueue, workflowId, args });
  const result = await handle.result();
  const historyLengths: number[] = [];
  let runId: string | null | undefined = handle.firstExecutionRunId;
  while (runId) {
    const history = await client.getHandle(workflowId, runId).fetchHistory();
    const events: temporal.api.history.v1.IHistoryEvent[] = history.events ?? [];
    historyLengths.push(events.length);
    runId = events[events.length - 1]?.workflowExecutionContinuedAsNewEventAttributes?.newExecutionRunId;
  }
  return { result, historyLengths };
}

let queues = 0;

/** Runs `run` beside a worker of a queue of its own, whose activities are the platform's with `overrides`. */
export async function withActivities<T>(platform: Platform, overrides: Partial<Activities>, run: (taskQueue: string) => Promise<T>): Promise<T> {
  queues += 1;
  const taskQueue = `test-activities-${queues}`;
  const worker = await Worker.create({
    connection: platform.env.nativeConnection,
    taskQueue,
    activities: { ...createActivities({ db: platform.db }), ...overrides },
    workflowBundle: { codePath: process.env.TEST_WORKFLOW_BUNDLE! },
    maxCachedWorkflows: 0,
  });
  return worker.runUntil(run(taskQueue));
}

/** The platform's file storage, but a write fails when `fails` says so; `writes` lists every key asked for, failed ones too. */
export function storageFailing(fails: (key: string, writes: readonly string[]) => boolean): { storage: FileStorage; writes: string[] } {
  const real = fileStorageFromEnv();
  const writes: string[] = [];
  const storage: FileStorage = {
    read: (key) => real.read(key),
    remove: (key) => real.remove(key),
    async write(key, body) {
      writes.push(key);
      if (fails(key, writes)) throw new Error(`storage refused ${key}`);
      return real.write(key, body);
    },
  };
  return { storage, writes };
}

export interface SettlementData {
  accountId: string;
  legalEntityId: string;
  currency: string;
  /** The settlement date; the period is the day before. */
  day: string;
  amount: number;
  /** Both files written to FileStorage and SUCCEEDED; otherwise both PROCESSING. */
  stored: boolean;
}

/** A settlement as the nightly run leaves it, written directly (for lists, without running the day). */
export async function storedSettlement(db: Database, s: SettlementData): Promise<string> {
  const id = newId('settlement');
  const now = new Date();
  const day = new Date(`${s.day}T00:00:00Z`);
  const before = new Date(day.getTime() - 86_400_000);
  await db.settlement.create({
    data: {
      id,
      accountId: s.accountId,
      legalEntityId: s.legalEntityId,
      provider: 'sandbox-alpha',
      providerSettlementId: `sandbox-alpha_stl_${s.day.replace(/-/g, '')}_${id.slice(-12)}`,
      currency: s.currency,
      amount: s.amount,
      grossAmount: s.amount,
      refundedAmount: 0,
      feeAmount: 0,
      settlementDate: day,
      periodFrom: before,
      periodTo: before,
      createdAt: now,
      updatedAt: now,
    },
  });
  for (const type of ['SETTLEMENT', 'FINANCIAL_ENTRIES'] as const) {
    const key = settlementFileKey(id, type);
    if (s.stored) await fileStorageFromEnv().write(key, Readable.from([`record_type,settlement_id\r\n${type},${id}\r\n`]));
    await db.settlementFile.create({
      data: { id: newId('settlementFile'), settlementId: id, type, status: s.stored ? 'SUCCEEDED' : 'PROCESSING', storageKey: s.stored ? key : null, createdAt: now, updatedAt: now },
    });
  }
  return id;
}

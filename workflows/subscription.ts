import {
  ActivityFailure,
  allHandlersFinished,
  ApplicationFailure,
  condition,
  log,
  makeContinueAsNewFunc,
  patched,
  proxyActivities,
  proxyLocalActivities,
  setCurrentDetails,
  setHandler,
  sleep,
  startChild,
  workflowInfo,
} from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { SubscriptionObject } from '../services/subscriptions/subscription-object';
import { CHARGE_HEARTBEAT_TIMEOUT_MS } from '../domain/charge-heartbeats';
import { billCycle, finalUsage, type InvoiceKind, type PlannedInvoice } from '../domain/subscriptions/billing';
import { cancel, cancelNow, cancelScheduled, deleteCancellation, validateCancel, validateDeleteCancellation } from '../domain/subscriptions/cancellation';
import { expire } from '../domain/subscriptions/expiry';
import { dunningStarted, paymentSettled } from '../domain/subscriptions/payment-outcome';
import { prorationInvoice, type Proration } from '../domain/subscriptions/proration';
import { reactivate } from '../domain/subscriptions/restore';
import { nextDue } from '../domain/subscriptions/schedule';
import { type Step, type SubscriptionState } from '../domain/subscriptions/state';
import { startTrial } from '../domain/subscriptions/trial';
import { update, validateUpdate } from '../domain/subscriptions/update';
import { canApply, isTerminal, SubscriptionRefused } from '../domain/subscription-status';
import { subscriptionSubject, subscriptionSummary, subscriptionWaiting } from '../domain/subscriptions/workflow-metadata';
import { invoiceCollectionSubject, invoiceCollectionSummary } from '../domain/invoice-collection-metadata';
import { invoiceCollectionWorkflowId } from '../domain/workflow-ids';
import { runDetails } from '../domain/workflow-details';
import { searchAttributesOf } from '../domain/workflow-search-attributes';
import { keepBillingStatus } from './billing-status';
import { invoiceCollectionWorkflow } from './invoice-collection';
import {
  cancelSubscriptionUpdate,
  deleteCancellationUpdate,
  invoiceDunningStartedSignal,
  subscriptionInvoiceSettledSignal,
  subscriptionStateQuery,
  updateSubscriptionUpdate,
} from './subscription-messages';

// A write is keyed by the state's version, an invoice by its cycle and a charge by its attempt: retrying is always safe.
const RETRY = { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute', nonRetryableErrorTypes: ['SUBSCRIPTION_MISSING', 'FINALIZATION_FAILED'] };

const { loadSubscription, saveSubscription, subscriptionInvoicesOwed, invoiceCollectionStatus, refundProrationCredit } = proxyActivities<Activities>({
  startToCloseTimeout: '1 minute',
  retry: RETRY,
});

/** Charges through the provider, as an invoice collection's attempt does: the same time allowed, and the same heartbeat. */
const { renewSubscriptionPeriod } = proxyActivities<Activities>({ startToCloseTimeout: '5 minutes', heartbeatTimeout: CHARGE_HEARTBEAT_TIMEOUT_MS, retry: RETRY });

/**
 * The same activity run as a local activity, inside the workflow task the timer woke: a renewal
 * is then one workflow task and one marker, not a task for the activity and a second workflow
 * task for its result (docs/subscriptions.md, "Design"). A worker that dies mid-charge lets its
 * workflow task time out (10 s, under the charge heartbeat's 20 s) and the next worker runs the
 * renewal again, the same charge under the same key.
 *
 * Retried as the scheduled one is, but a local activity's retry that waits longer than
 * `localRetryThreshold` waits on a workflow timer, a few events of history each: past 10 s they
 * are timers, and they space out to 10 minutes rather than 1, so an outage of a day adds about
 * a thousand events to the run, not nine thousand.
 */
const { renewSubscriptionPeriod: renewSubscriptionPeriodLocally } = proxyLocalActivities<Activities>({
  startToCloseTimeout: '5 minutes',
  localRetryThreshold: '10 seconds',
  retry: { ...RETRY, maximumInterval: '10 minutes' },
});

/**
 * Marks runs that bill a cycle with renewSubscriptionPeriod (save, first charge and, paid, the
 * outcome in one activity); histories from before it replay the save then the collection child.
 */
const RENEW_IN_ONE_ACTIVITY_PATCH = 'renew-in-one-activity';

/** Marks runs that renew in a local activity; histories from before it replay the scheduled one. */
const RENEW_LOCALLY_PATCH = 'renew-in-local-activity';

/** Cycles one run bills before it continues as new: keeps each run's history to a few hundred events. */
export const MAX_CYCLES_PER_RUN = 12;

/**
 * How often an UNPAID subscription looks for its debt settled by hand without being told: the
 * signal from invoices/pay and invoices/void is sent after their commit, so a crash in between
 * would otherwise leave it UNPAID for good.
 */
const UNPAID_RECHECK_MS = 24 * 60 * 60 * 1000;
/** Such looks one run makes before it continues as new. */
const MAX_RECHECKS_PER_RUN = 60;

/** How long a cycle whose invoice could not be finalized waits before it is tried again. */
const BILLING_RETRY_MS = 24 * 60 * 60 * 1000;

function isFinalizationRefusal(error: unknown): boolean {
  // A scheduled activity's failure reaches the workflow wrapped in an ActivityFailure; a local one's as it was thrown.
  const failure = error instanceof ActivityFailure ? error.cause : error;
  return failure instanceof ApplicationFailure && failure.type === 'FINALIZATION_FAILED';
}

export interface SubscriptionWorkflowInput {
  subscriptionId: string;
  /** Carried over by continue-as-new; a new run (create, restore) reads the row instead. */
  state?: SubscriptionState;
  /** Issued invoices whose collection had not started when the previous run handed over. */
  toCollect?: Issued[];
  /** Proration credits not yet refunded when the previous run handed over. */
  toRefund?: Credit[];
}

interface Credit {
  key: string;
  credit: Proration;
}

interface Issued {
  id: string;
  kind: InvoiceKind;
  status: string;
}

/** Our refusals become ApplicationFailures whose type is the 422 code: the API maps them back. */
function refused<T>(work: () => T): T {
  try {
    return work();
  } catch (error) {
    if (error instanceof SubscriptionRefused) {
      throw ApplicationFailure.create({ type: error.code, message: error.message, details: [error.context], nonRetryable: true });
    }
    throw error;
  }
}

/**
 * One subscription for its whole life (docs/subscriptions.md): the state lives here, the
 * database row is its read model, written with its events by `saveSubscription` at every
 * change. Timers wait with `condition`, so the Updates `update`, `cancel` and
 * `deleteCancellation` interleave and a refused change fails the Update with our 422 code.
 * Each cycle's invoice is collected by invoiceCollectionWorkflow as a child (abandoned if this
 * run closes), which signals when dunning starts. Changes are applied one at a time, each with
 * a higher version; a change that leaves a net proration credit is refunded right after it.
 * An UNPAID subscription becomes ACTIVE again once nothing it billed is owed: told by
 * invoices/pay and invoices/void, and looking daily in case that word was lost. The run
 * continues as new after MAX_CYCLES_PER_RUN cycles (or MAX_RECHECKS_PER_RUN looks) or when
 * Temporal suggests it, so a monthly subscription can run for decades with bounded history.
 */
export async function subscriptionWorkflow(input: SubscriptionWorkflowInput): Promise<{ status: string }> {
  // Handlers are registered before the state is read: an Update sent right after the start must
  // not find the workflow without them. Until the state is there, validators let everything
  // through and handlers wait; the handler checks again.
  let state: SubscriptionState = input.state ?? (undefined as unknown as SubscriptionState);
  const toCollect: Issued[] = [...(input.toCollect ?? [])];
  const toRefund: Credit[] = [...(input.toRefund ?? [])];
  let changed = false;
  let busy = false;
  let awaiting: string | null = null;
  let dunningFor: string | null = null;
  let settledByHand = false;
  let billingBlockedUntil = 0;

  /**
   * Changes go one at a time: every write carries the next version, none is overtaken. The lock
   * is taken in the same synchronous step as the check: waiters woken together (two Updates
   * accepted before the state was read) would otherwise all find it free.
   */
  async function exclusive<T>(work: () => Promise<T>): Promise<T> {
    while (state === undefined || busy) await condition(() => state !== undefined && !busy);
    busy = true;
    try {
      return await work();
    } finally {
      busy = false;
      changed = true;
    }
  }

  async function persist(step: Step, invoice?: PlannedInvoice): Promise<SubscriptionObject> {
    const saved = await saveSubscription.executeWithOptions({ summary: `Save ${step.state.id} v${step.state.version}: ${step.state.status}` }, [
      { state: step.state, events: step.events, invoice },
    ]);
    state = saved.invoice ? { ...step.state, latestInvoiceId: saved.invoice.id } : step.state;
    keepBillingStatus(subscriptionSubject(state));
    if (invoice && saved.invoice) toCollect.push({ id: saved.invoice.id, kind: invoice.kind, status: saved.invoice.status });
    return saved.subscription;
  }

  /**
   * Issues a cycle's invoice and charges it in one activity; paid, the subscription is settled
   * there too (the step decided here with workflow time). Otherwise the invoice goes to its
   * collection workflow like any other, which finds the first attempt made.
   */
  async function renew(step: Step, invoice: PlannedInvoice, now: number): Promise<void> {
    const settled = canApply('paid', step.state.status) ? paymentSettled(step.state, invoice.kind, true, now) : null;
    const paid = settled && settled.state !== step.state ? settled : null;
    const renewal = patched(RENEW_LOCALLY_PATCH) ? renewSubscriptionPeriodLocally : renewSubscriptionPeriod;
    const result = await renewal.executeWithOptions({ summary: `Bill cycle ${step.state.cycleCount} of ${step.state.id} and charge it` }, [
      { state: step.state, events: step.events, invoice, paid },
    ]);
    const { id, status } = result.invoice;
    if (status === 'PAID') {
      state = { ...(paid?.state ?? step.state), latestInvoiceId: id };
      keepBillingStatus(subscriptionSubject(state));
      return;
    }
    state = { ...step.state, latestInvoiceId: id };
    keepBillingStatus(subscriptionSubject(state));
    toCollect.push({ id, kind: invoice.kind, status });
  }

  setHandler(subscriptionStateQuery, () => state);

  setHandler(
    updateSubscriptionUpdate,
    (changes) =>
      exclusive(async () => {
        const now = Date.now();
        const step = refused(() => update(state, changes, now));
        const saved = await persist(step, step.proration.length > 0 ? prorationInvoice(step.state, step.proration) : undefined);
        if (step.credit) toRefund.push({ key: `proration/${step.state.version}`, credit: step.credit });
        return saved;
      }),
    { validator: (changes) => void (state && refused(() => validateUpdate(state, changes, Date.now()))) },
  );

  setHandler(
    cancelSubscriptionUpdate,
    (request) => exclusive(async () => persist(refused(() => cancel(state, request, Date.now())))),
    { validator: (request) => void (state && refused(() => validateCancel(state, request))) },
  );

  setHandler(
    deleteCancellationUpdate,
    () => exclusive(async () => persist(refused(() => deleteCancellation(state, Date.now())))),
    { validator: () => void (state && refused(() => validateDeleteCancellation(state))) },
  );

  setHandler(invoiceDunningStartedSignal, ({ invoiceId }) => {
    if (invoiceId === awaiting) dunningFor = invoiceId;
  });

  setHandler(subscriptionInvoiceSettledSignal, () => {
    settledByHand = true;
  });

  if (!input.state) {
    const loaded = await loadSubscription.executeWithOptions({ summary: `Load ${input.subscriptionId}` }, [{ subscriptionId: input.subscriptionId }]);
    // The create (or restore) that started this run rolled back: nothing to own.
    if (!loaded) return { status: 'MISSING' };
    state = loaded;
  }
  keepBillingStatus(subscriptionSubject(state));

  /**
   * The run's current details: the summary first, as the subscription is now (a run continued as
   * new has no static summary of its own), then what it waits for.
   */
  function showDetails(now: string): void {
    setCurrentDetails(runDetails(subscriptionSummary(state), now));
  }

  /** Collects one issued invoice and applies the outcome. Returns early if the subscription ended meanwhile. */
  async function collect(invoice: Issued): Promise<void> {
    let status = invoice.status;
    if (status !== 'PAID') {
      // Set first: the child's signal may arrive in the same activation as its start.
      awaiting = invoice.id;
      const collected = { id: invoice.id, accountId: state.accountId, channelId: state.channelId, customerId: state.customerId, status, subscriptionId: state.id };
      const child = await startChild(invoiceCollectionWorkflow, {
        workflowId: invoiceCollectionWorkflowId(invoice.id),
        typedSearchAttributes: searchAttributesOf(invoiceCollectionSubject(collected)),
        staticSummary: invoiceCollectionSummary(collected),
        args: [{ invoiceId: invoice.id, retryScheduleDays: state.settings.dunning_retry_schedule_days, subscriptionWorkflowId: workflowInfo().workflowId }],
        // The invoice is owed whatever happens to the subscription: its collection outlives this run.
        parentClosePolicy: 'ABANDON',
      });
      showDetails(`Waiting for the collection of ${invoice.id} (${invoiceCollectionWorkflowId(invoice.id)})`);
      let result: { status: string } | undefined;
      let failure: unknown;
      child.result().then(
        (value) => void (result = value),
        (error: unknown) => void (failure = error ?? new Error('collection failed')),
      );
      for (;;) {
        await condition(() => result !== undefined || failure !== undefined || dunningFor === invoice.id || isTerminal(state.status));
        if (failure !== undefined) {
          // A collection that failed or was terminated says nothing about the money; the invoice
          // does. Still owed, it counts as unpaid: nothing will collect it now.
          const current = await invoiceCollectionStatus.executeWithOptions({ summary: `Read the status of ${invoice.id}` }, [{ invoiceId: invoice.id }]);
          log.warn('Invoice collection ended without a result; going by the invoice', { invoiceId: invoice.id, status: current.status, failure: String(failure) });
          result = { status: current.status };
          break;
        }
        if (isTerminal(state.status)) {
          awaiting = null;
          return;
        }
        if (dunningFor === invoice.id) {
          dunningFor = null;
          await exclusive(async () => {
            if (canApply('dunningStarted', state.status)) await persist(dunningStarted(state, Date.now()));
          });
          continue;
        }
        break;
      }
      awaiting = null;
      status = result!.status;
    }
    // A voided invoice was waived by the merchant: nothing is owed, the subscription goes on.
    const paid = status === 'PAID' || status === 'VOIDED';
    await exclusive(async () => {
      if (!canApply(paid ? 'paid' : 'unpaid', state.status)) return;
      const step = paymentSettled(state, invoice.kind, paid, Date.now());
      if (step.state !== state) await persist(step);
      if (!paid && state.settings.on_dunning_exhausted === 'CANCEL') await persist(cancelNow(state, Date.now(), 'DUNNING_EXHAUSTED', null));
    });
  }

  /** An UNPAID subscription whose invoices were all settled by hand is ACTIVE again. */
  async function reactivateIfNothingOwed(): Promise<void> {
    if (state.status !== 'UNPAID') return;
    const owed = await subscriptionInvoicesOwed.executeWithOptions({ summary: `Count the invoices ${state.id} still owes` }, [{ subscriptionId: state.id }]);
    if (owed > 0) return;
    await exclusive(async () => {
      if (canApply('reactivate', state.status)) await persist(reactivate(state, Date.now()));
    });
  }

  /** What is due next, a cycle held back while its invoice cannot be finalized. */
  function dueNext(): ReturnType<typeof nextDue> {
    const due = nextDue(state);
    return due && due.kind === 'bill' && billingBlockedUntil > due.at ? { ...due, at: billingBlockedUntil } : due;
  }

  /** Whatever is due now, checked again under the lock (an Update may have changed it). */
  async function act(): Promise<boolean> {
    return exclusive(async () => {
      const due = dueNext();
      const now = Date.now();
      if (!due || due.at > now) return false;
      switch (due.kind) {
        case 'cancel':
          await persist(cancelScheduled(state, now));
          break;
        case 'expire':
          await persist(expire(state, now));
          break;
        case 'startTrial':
          await persist(startTrial(state, now));
          break;
        case 'bill': {
          // Billed from the period's boundary even when issued later, after a usage grace.
          const { step, invoice } = billCycle(state, state.nextCycleAt!, now);
          try {
            if (patched(RENEW_IN_ONE_ACTIVITY_PATCH)) await renew(step, invoice, now);
            else await persist(step, invoice);
          } catch (error) {
            // Finalization refused the invoice (e.g. a taxed line and a customer whose address lost
            // its country): nothing was written. The merchant can fix it; the cycle is tried daily.
            if (!isFinalizationRefusal(error)) throw error;
            log.warn('Cycle invoice could not be finalized; trying again later', { subscriptionId: state.id, error: String(error) });
            billingBlockedUntil = now + BILLING_RETRY_MS;
            return false;
          }
          billingBlockedUntil = 0;
          return true;
        }
      }
      return false;
    });
  }

  /**
   * An ended subscription's usage up to its end, invoiced once the usage grace has passed: a
   * subscription without usage lines has none, so runs from before usage prices replay as they were.
   */
  async function billFinalUsage(): Promise<void> {
    const due = finalUsage(state, Date.now());
    if (!due) return;
    const wait = due.at - Date.now();
    if (wait > 0) {
      showDetails(`Waiting until ${new Date(due.at).toISOString()} to invoice the usage up to the end`);
      await sleep(wait);
    }
    for (;;) {
      const issued = await exclusive(async () => {
        const final = finalUsage(state, Date.now());
        if (!final) return true;
        try {
          await persist(final.step, final.invoice);
          return true;
        } catch (error) {
          // Refused as a cycle can be (a taxed line without the customer's country, a usage line
          // too large): the merchant can fix it, and it is tried daily, as cycles are.
          if (!isFinalizationRefusal(error)) throw error;
          log.warn('Final usage invoice could not be finalized; trying again later', { subscriptionId: state.id, error: String(error) });
          return false;
        }
      });
      if (issued) break;
      await sleep(BILLING_RETRY_MS);
    }
    // Their collections outlive this run, as every invoice's does.
    for (let issued = toCollect.shift(); issued; issued = toCollect.shift()) await collect(issued);
  }

  let cycles = 0;
  let rechecks = 0;
  while (!isTerminal(state.status)) {
    if (settledByHand) {
      settledByHand = false;
      await reactivateIfNothingOwed();
      continue;
    }
    const refund = toRefund.shift();
    if (refund) {
      // A change made while its period's invoice was being collected gives back only if that
      // invoice was paid: then the subscription is still ACTIVE.
      if (state.status === 'ACTIVE') {
        await refundProrationCredit.executeWithOptions({ summary: `Refund the proration credit ${refund.key} of ${state.id}` }, [{ subscriptionId: state.id, ...refund }]);
      }
      continue;
    }
    const next = toCollect.shift();
    if (next) {
      await collect(next);
      continue;
    }
    const due = dueNext();
    if (due && due.at <= Date.now()) {
      if (await act()) cycles++;
      continue;
    }
    if (cycles >= MAX_CYCLES_PER_RUN || rechecks >= MAX_RECHECKS_PER_RUN || workflowInfo().continueAsNewSuggested) {
      await condition(() => allHandlersFinished() && !busy);
      // The attributes as this run last set them, so the next run is found by the same query.
      await makeContinueAsNewFunc<typeof subscriptionWorkflow>({ typedSearchAttributes: workflowInfo().typedSearchAttributes })({
        subscriptionId: input.subscriptionId,
        state,
        toCollect,
        toRefund,
      });
    }
    changed = false;
    const wake = () => changed || settledByHand || toCollect.length > 0 || toRefund.length > 0;
    // Runs that waited in UNPAID before the recheck existed replay without its timer.
    const unpaid = state.status === 'UNPAID' && patched('unpaid-recheck');
    const timeout = Math.min(due ? due.at - Date.now() : Infinity, unpaid ? UNPAID_RECHECK_MS : Infinity);
    showDetails(subscriptionWaiting(state, due, unpaid ? Date.now() + UNPAID_RECHECK_MS : null));
    if (timeout === Infinity) await condition(wake);
    else if (!(await condition(wake, timeout)) && unpaid) {
      settledByHand = true;
      rechecks++;
    }
  }
  await billFinalUsage();
  // Updates accepted just before the end finish before the run closes.
  await condition(allHandlersFinished);
  return { status: state.status };
}

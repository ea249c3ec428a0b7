import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import Stripe from 'stripe';
import type { createDatabase } from '../../prisma/client';
import { connectStripe } from '../../services/payments/providers/stripe/connection';
import { createAccount, createChannel, createOperatorApiKey } from '../operator/accounts';
import type { StripeEmulator } from '../stripe/emulator-process';
import { startLocalstripe } from '../stripe/localstripe';
import { ApiClient } from './api-client';
import { startStripeGate, type StripeGate, type Trap } from './stripe-gate';

type Database = ReturnType<typeof createDatabase>;

const SECRET_KEY = 'sk_test_clusterroute0001';
const WEBHOOK_SECRET = 'whsec_clusterroute0001';
/**
 * After the traffic, the refund abandoned at the API kill is normally finished already (its
 * minute's lease, then the sweeper's next run, a minute apart in the cluster); this is a margin.
 */
const SETTLE_TIMEOUT_MS = 120_000;

export interface StripeRouteOptions {
  db: Database;
  /** SECRETS_KEY of the cluster's processes: the connection is sealed with it. */
  sealingKey: Uint8Array;
  /** The ports of the live API processes. */
  ports: () => number[];
  loops: number;
  subscriptions: number;
  log: (message: string) => void;
}

export interface StripeCounts {
  traffic: string;
  mustBeZero: Record<string, number>;
}

/**
 * The Stripe route of `npm run test:cluster` (docs/payments-stripe.md, "Reliability"): a second
 * account connected to localstripe through a gate (stripe-gate.ts) that can hold back Stripe's
 * answers to one process, customers with cards Stripe holds, subscriptions renewing every minute
 * and pay and refund loops through both APIs. The run's kills are aimed with catchMidCharge, so
 * each lands after Stripe charged and before the process heard; afterwards the counts come from
 * localstripe's own PaymentIntents and Refunds beside our invoices and refunds.
 */
export class StripeRoute {
  readonly stats = { paid: 0, refunds: 0, abandonedRefunds: 0, killsMissed: 0 };
  private trap: Trap | undefined;
  /** The invoice refunded by a request nobody retries: only the payment sweeper can finish it. */
  private abandoned: { invoiceId: string; paymentIntentId: string } | undefined;

  private constructor(
    private readonly options: StripeRouteOptions,
    readonly accountId: string,
    private readonly secret: string,
    readonly http: ApiClient,
    private readonly emulator: StripeEmulator,
    private readonly gate: StripeGate,
    /** Straight to the emulator, past the gate: cards, and the records counted at the end. */
    private readonly stripe: Stripe,
  ) {}

  static async start(options: StripeRouteOptions): Promise<StripeRoute> {
    const { db } = options;
    const emulator = await startLocalstripe();
    const gate = await startStripeGate(emulator.url);
    const account = await createAccount(db, 'cluster-stripe');
    await createChannel(db, account.id, 'cluster-stripe');
    const { secret } = await createOperatorApiKey(db, { accountId: account.id, name: 'cluster-stripe' });
    await connectStripe(db, account.id, { secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET, apiBase: gate.url, connectedBy: 'operator' }, new Date(), options.sealingKey);
    const stripe = new Stripe(SECRET_KEY, { host: emulator.host, port: emulator.port, protocol: emulator.protocol, maxNetworkRetries: 0 });
    const route = new StripeRoute(options, account.id, secret, new ApiClient(secret, options.ports), emulator, gate, stripe);
    options.log(`Stripe route: account ${account.id} connected to localstripe at ${emulator.url} through the gate at ${gate.url}`);
    return route;
  }

  /** Subscriptions renewing every minute on Stripe cards: their renewals are charged by the workers. */
  async subscribe(): Promise<void> {
    const product = await this.http.ok('products/create', { name: 'Minutely plan on Stripe' });
    const price = await this.http.ok('product-prices/create', {
      product_id: product.id,
      currency: 'EUR',
      amount: 1_290,
      billing_type: 'RECURRING',
      billing_period_config: { value: 1, unit: 'MINUTE' },
    });
    for (let n = 0; n < this.options.subscriptions; n++) {
      const payer = await this.payer(`stripe-sub${n}`);
      await this.http.ok('subscriptions/create', { customer_id: payer.customerId, line_items: [{ product_price_id: price.id, quantity: 1 }] });
    }
    // Paid now, refunded at the API kill by a request that is never retried.
    const payer = await this.payer('stripe-abandoned');
    const invoice = await this.paidInvoice(payer, 4_000);
    this.abandoned = { invoiceId: invoice.invoice.id, paymentIntentId: invoice.payment.provider_reference };
  }

  /** Loops creating, finalizing and paying invoices through Stripe, every third one partly refunded, until `stop()`. */
  traffic(stop: () => boolean): Promise<void> {
    const loops = Array.from({ length: this.options.loops }, (_, n) =>
      (async () => {
        const payer = await this.payer(`stripe-loop${n}`);
        for (let cycle = 0; !stop(); cycle++) {
          const { invoice } = await this.paidInvoice(payer, 2_000 + n);
          this.stats.paid++;
          if (cycle % 3 === 0) {
            await this.http.ok('invoices/refund', { id: invoice.id, amount: 300 });
            this.stats.refunds++;
          }
        }
      })(),
    );
    return Promise.all(loops).then(() => undefined);
  }

  /**
   * Holds back Stripe's answers to the first of `pids` that charges, and resolves with its pid
   * once Stripe has charged for it (undefined when none charged within `timeoutMs`). With
   * `abandonRefundVia`, the API on that port (the victim's) is also sent a refund that nobody
   * retries, and this resolves once Stripe has made that refund too. The caller kills the
   * victim with kill(), soon: the SDK gives up on a held answer after 20 s.
   */
  async catchMidCharge(pids: number[], options: { timeoutMs: number; abandonRefundVia?: number }): Promise<number | undefined> {
    this.trap = this.gate.trap(pids);
    const charge = await this.trap.caught('charge', options.timeoutMs);
    if (!charge) return undefined;
    if (options.abandonRefundVia !== undefined && this.abandoned) {
      const { invoiceId, paymentIntentId } = this.abandoned;
      void this.sendOnce(options.abandonRefundVia, 'invoices/refund', { id: invoiceId, amount: 700 });
      if (await this.trap.caught('refund', 10_000, (form) => form.get('payment_intent') === paymentIntentId)) this.stats.abandonedRefunds++;
    }
    return charge.pid;
  }

  /** kill -9 of `child`, counted as missed unless Stripe's answer to one of its charges is still held from it. */
  kill(child: ChildProcess, name: string): void {
    const trap = this.trap;
    const charges = trap && trap.victim() === child.pid ? trap.waiting('charge').length : 0;
    const refunds = trap && trap.victim() === child.pid ? trap.waiting('refund').length : 0;
    if (charges === 0) this.stats.killsMissed++;
    child.kill('SIGKILL');
    this.options.log(`kill -9 ${name}: answers of Stripe it never received: ${charges} charge(s), ${refunds} refund(s)`);
    trap?.end();
    this.trap = undefined;
  }

  /**
   * Waits until nothing of the account is left half-done (no invoice claimed, no payment
   * PROCESSING or PENDING, no refund PENDING: the abandoned refund is the payment sweeper's),
   * then counts from localstripe's records what must be zero.
   */
  async settleAndCount(): Promise<StripeCounts> {
    const deadline = Date.now() + SETTLE_TIMEOUT_MS;
    let reported = 0;
    let unfinished = await this.unfinished();
    while (unfinished > 0 && Date.now() < deadline) {
      if (Date.now() - reported > 15_000) {
        this.options.log(`Stripe route settling: ${unfinished} claims, payments or refunds not finished yet`);
        reported = Date.now();
      }
      await delay(2_000);
      unfinished = await this.unfinished();
    }

    const intents: Stripe.PaymentIntent[] = [];
    for await (const intent of this.stripe.paymentIntents.list({ limit: 100 })) intents.push(intent);
    const refunds: Stripe.Refund[] = [];
    for await (const refund of this.stripe.refunds.list({ limit: 100 })) refunds.push(refund);
    const { db } = this.options;
    const invoices = await db.invoice.findMany({ where: { accountId: this.accountId }, select: { id: true, status: true, amountPaid: true, subscriptionId: true } });
    const ours = await db.refund.findMany({ where: { accountId: this.accountId, status: 'SUCCEEDED' }, select: { invoiceId: true, amount: true } });

    const succeeded = new Map<string, number[]>();
    const invoiceOfIntent = new Map<string, string>();
    for (const intent of intents) {
      const invoiceId = intent.metadata?.bp_invoice_id;
      if (!invoiceId) continue;
      invoiceOfIntent.set(intent.id, invoiceId);
      if (intent.status === 'succeeded') succeeded.set(invoiceId, [...(succeeded.get(invoiceId) ?? []), intent.amount]);
    }
    const chargedTwice = [...succeeded.values()].filter((amounts) => amounts.length > 1).length;

    // An invoice is PAID exactly when Stripe holds a succeeded PaymentIntent for it, of what it says was paid.
    const byId = new Map(invoices.map((invoice) => [invoice.id, invoice]));
    let disagreeing = 0;
    for (const id of new Set([...byId.keys(), ...succeeded.keys()])) {
      const invoice = byId.get(id);
      const charged = succeeded.get(id) ?? [];
      const paid = invoice?.status === 'PAID';
      if (paid !== charged.length > 0 || (paid && charged.reduce((a, b) => a + b, 0) !== invoice!.amountPaid)) {
        disagreeing++;
        this.options.log(`Stripe route: invoice ${id} is ${invoice?.status ?? 'unknown to us'} (paid ${invoice?.amountPaid ?? 0}), Stripe charged [${charged.join(', ')}]`);
      }
    }

    // Per invoice, Stripe's refunds against our SUCCEEDED ones: the same sum, and no more of them.
    const refunded = (rows: Array<{ invoiceId: string | undefined; amount: number }>) => {
      const sums = new Map<string, { sum: number; count: number }>();
      for (const row of rows) {
        if (!row.invoiceId) continue;
        const entry = sums.get(row.invoiceId) ?? { sum: 0, count: 0 };
        sums.set(row.invoiceId, { sum: entry.sum + row.amount, count: entry.count + 1 });
      }
      return sums;
    };
    const atStripe = refunded(
      refunds.filter((refund) => refund.status === 'succeeded').map((refund) => ({ invoiceId: invoiceOfIntent.get(String(refund.payment_intent)), amount: refund.amount })),
    );
    const atOurs = refunded(ours);
    let refundsDoubled = 0;
    for (const id of new Set([...atStripe.keys(), ...atOurs.keys()])) {
      const stripe = atStripe.get(id) ?? { sum: 0, count: 0 };
      const our = atOurs.get(id) ?? { sum: 0, count: 0 };
      if (stripe.sum !== our.sum || stripe.count > our.count) {
        refundsDoubled++;
        this.options.log(`Stripe route: invoice ${id} refunded ${stripe.sum} in ${stripe.count} at Stripe, ${our.sum} in ${our.count} by us`);
      }
    }

    const renewals = invoices.filter((invoice) => invoice.subscriptionId !== null && invoice.status === 'PAID').length;
    return {
      traffic:
        `${this.stats.paid} invoices paid through Stripe, ${this.stats.refunds} refunds (+${this.stats.abandonedRefunds} abandoned at the kill), ` +
        `${renewals} subscription invoices charged through Stripe; at localstripe ${intents.length} PaymentIntents, ${refunds.length} Refunds`,
      mustBeZero: {
        'Stripe: invoices charged twice (more than one succeeded PaymentIntent)': chargedTwice,
        'Stripe: refunds doubled (an invoice refunded more at Stripe, or more often, than by our SUCCEEDED refunds)': refundsDoubled,
        'Stripe: invoices whose status disagrees with Stripe (PAID without its succeeded PaymentIntent, or charged and not PAID)': disagreeing,
        'Stripe: claims, payments or refunds left unfinished after the sweep': unfinished,
        'Stripe: kills that did not land while Stripe held a charge of the process': this.stats.killsMissed,
      },
    };
  }

  async stop(): Promise<void> {
    await this.gate.close();
    await this.emulator.stop();
  }

  private async unfinished(): Promise<number> {
    const [row] = await this.options.db.$queryRaw<{ n: bigint }[]>`
      SELECT (SELECT count(*) FROM invoices WHERE account_id = ${this.accountId} AND payment_in_progress_id IS NOT NULL)
           + (SELECT count(*) FROM payments WHERE account_id = ${this.accountId} AND status IN ('PENDING', 'PROCESSING'))
           + (SELECT count(*) FROM refunds WHERE account_id = ${this.accountId} AND status = 'PENDING') AS n`;
    return Number(row!.n);
  }

  private async paidInvoice(payer: { customerId: string; instrumentId: string }, amount: number): Promise<any> {
    const invoice = await this.http.ok('invoices/create', { customer_id: payer.customerId, currency: 'EUR', line_items: [{ amount, description: 'Cluster on Stripe', quantity: 1 }] });
    await this.http.ok('invoices/finalize', { id: invoice.id });
    return this.http.ok('invoices/pay', { id: invoice.id, payment_instrument_id: payer.instrumentId });
  }

  /**
   * A customer whose default instrument is a card Stripe holds: a PaymentMethod attached to the
   * customer's Stripe mirror, as the merchant's front end leaves it, and our instrument naming
   * both (test/payments-stripe/stripe-fixtures.ts records it the same way).
   */
  private async payer(label: string): Promise<{ customerId: string; instrumentId: string }> {
    const customer = await this.http.ok('customers/create', { type: 'INDIVIDUAL', email: `${label}@example.com` });
    const year = new Date().getUTCFullYear() + 3;
    // As the merchant's front end saves it (Stripe.js), then payment-instruments/attach.
    const method = await this.stripe.paymentMethods.create({ type: 'card', card: { number: '4242424242424242', exp_month: 12, exp_year: year, cvc: '123' } } as Stripe.PaymentMethodCreateParams);
    const instrument = await this.http.ok('payment-instruments/attach', { customer_id: customer.id, provider: 'stripe', payment_method_id: method.id });
    await this.http.ok('customers/patch', { id: customer.id, configuration: { default_payment_instrument_id: instrument.id } });
    return { customerId: customer.id, instrumentId: instrument.id };
  }

  /** One request to one API, never retried: a merchant that gave up on it. */
  private async sendOnce(port: number, path: string, body: unknown): Promise<void> {
    await fetch(`http://127.0.0.1:${port}/v2/${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${this.secret}`, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
      body: JSON.stringify(body),
    }).then(
      (response) => response.body?.cancel(),
      () => undefined,
    );
  }
}

import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import type { createDatabase } from '../../prisma/client';

const REQUEST_DEADLINE_MS = 90_000;

/**
 * The merchant's HTTP client over every live API process in turn. Every write carries an
 * Idempotency-Key, and a request that meets a dropped connection or a 5xx (an API killed, the
 * database restarting) is sent again with the same key, to the next process, until it answers.
 */
export class ApiClient {
  private next = 0;
  private inFlight = new Map<string, number>();
  private waiters: Array<{ port: number; path: string; resolve: () => void }> = [];
  onRetry: () => void = () => undefined;

  constructor(
    private readonly secret: string,
    private readonly ports: () => number[],
  ) {}

  async ok(path: string, body: unknown): Promise<any> {
    const key = randomUUID();
    const deadline = Date.now() + REQUEST_DEADLINE_MS;
    for (let attempt = 1; ; attempt++) {
      const ports = this.ports();
      const port = ports[this.next++ % ports.length]!;
      let answer: { status: number; json: any } | undefined;
      let failure: unknown;
      this.enter(port, path);
      try {
        const response = await fetch(`http://127.0.0.1:${port}/v2/${path}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${this.secret}`, 'content-type': 'application/json', 'idempotency-key': key },
          body: JSON.stringify(body),
        });
        answer = { status: response.status, json: await response.json() };
      } catch (error) {
        failure = error;
      } finally {
        this.inFlight.set(`${port} ${path}`, (this.inFlight.get(`${port} ${path}`) ?? 1) - 1);
      }
      if (answer?.status === 200) return answer.json;
      const retryable = !answer || answer.status >= 500 || answer.status === 409 || answer.status === 429;
      if (!retryable || Date.now() > deadline) throw new Error(`${path}: ${answer ? `${answer.status} ${JSON.stringify(answer.json)}` : String(failure)} (attempt ${attempt})`);
      this.onRetry();
      await delay(Math.min(2_000, 100 * attempt));
    }
  }

  /** Resolves once a request to `path` has been sent to the API on `port` and not yet answered. */
  inFlightOn(port: number, path: string): Promise<void> {
    return new Promise((resolve) => this.waiters.push({ port, path, resolve }));
  }

  private enter(port: number, path: string): void {
    this.inFlight.set(`${port} ${path}`, (this.inFlight.get(`${port} ${path}`) ?? 0) + 1);
    const ready = this.waiters.filter((w) => w.port === port && w.path === path);
    this.waiters = this.waiters.filter((w) => !ready.includes(w));
    // The request has left once fetch has had a turn of the event loop to write it.
    for (const waiter of ready) setTimeout(waiter.resolve, 5);
  }

  async payer(label: string): Promise<{ customerId: string; instrumentId: string }> {
    const customer = await this.ok('customers/create', { type: 'INDIVIDUAL', email: `${label}@example.com` });
    const instrument = await this.ok('payment-instruments/tokenize', { customer_id: customer.id, card: { number: '4242424242424242', exp_month: 12, exp_year: new Date().getUTCFullYear() + 5 } });
    await this.ok('customers/patch', { id: customer.id, configuration: { default_payment_instrument_id: instrument.id } });
    return { customerId: customer.id, instrumentId: instrument.id };
  }

  /** Waits until the report is written, then follows reports/download's 303 to the file; its line count. */
  async download(reportId: string, db: ReturnType<typeof createDatabase>): Promise<number> {
    const deadline = Date.now() + REQUEST_DEADLINE_MS;
    while ((await db.report.findUnique({ where: { id: reportId } }))?.status !== 'SUCCEEDED') {
      if (Date.now() > deadline) throw new Error(`report ${reportId} not written`);
      await delay(250);
    }
    const port = this.ports()[0]!;
    const redirect = await fetch(`http://127.0.0.1:${port}/v2/reports/download`, {
      method: 'POST',
      redirect: 'manual',
      headers: { authorization: `Bearer ${this.secret}`, 'content-type': 'application/json' },
      body: JSON.stringify({ id: reportId }),
    });
    if (redirect.status !== 303) throw new Error(`reports/download: ${redirect.status}`);
    const file = await fetch(redirect.headers.get('location')!);
    if (!file.ok) throw new Error(`report file: ${file.status}`);
    return (await file.text()).trimEnd().split('\n').length;
  }
}

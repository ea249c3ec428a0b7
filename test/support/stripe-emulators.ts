import Stripe from 'stripe';
import type { StripeEmulator } from '../../scripts/stripe/emulator-process';
import { startLocalstripe as startLocalstripeProcess } from '../../scripts/stripe/localstripe';
import { startStripeMock as startStripeMockProcess } from '../../scripts/stripe/stripe-mock';

export type { StripeEmulator };

/**
 * The Stripe emulators for tests (docs/testing.md, "Stripe emulators"). Each start is a process
 * of its own on a free port; whatever a test file started and did not stop is stopped after its
 * last test (jest loads this module once per test file). localstripe keeps its state in memory:
 * one per test file, emptied with `DELETE <url>/_config/data` where tests must not see each
 * other's records.
 */
const started = new Set<StripeEmulator>();

afterAll(async () => {
  await Promise.all([...started].map((emulator) => emulator.stop()));
  started.clear();
});

async function tracked(start: () => Promise<StripeEmulator>): Promise<StripeEmulator> {
  const emulator = await start();
  started.add(emulator);
  return emulator;
}

/** stripe-mock: stateless, answers every request Stripe's OpenAPI accepts with a fixture. */
export function startStripeMock(): Promise<StripeEmulator> {
  return tracked(startStripeMockProcess);
}

/** localstripe: stateful customers, payment methods, intents, refunds, and signed webhooks to registered URLs. */
export function startLocalstripe(): Promise<StripeEmulator> {
  return tracked(startLocalstripeProcess);
}

/**
 * The official SDK pointed at an emulator. No network retries: a test must see the emulator's
 * first answer, and localstripe ignores `Idempotency-Key`, so a retried POST would create twice.
 * Both emulators take any key of the right shape.
 */
export function stripeClientFor(emulator: StripeEmulator, secretKey = 'sk_test_emulator'): Stripe {
  return new Stripe(secretKey, { host: emulator.host, port: emulator.port, protocol: emulator.protocol, maxNetworkRetries: 0 });
}

async function configure(emulator: StripeEmulator, method: 'POST' | 'DELETE', path: string, body?: object): Promise<void> {
  const response = await fetch(`${emulator.url}${path}`, {
    method,
    headers: body ? { 'content-type': 'application/json' } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!response.ok) throw new Error(`localstripe ${method} ${path} answered ${response.status}: ${await response.text()}`);
}

/**
 * Has localstripe send its events to `url`, signed with `secret` as Stripe signs them, one second
 * after each event and without retries; `events` limits them to those types. Registering `id`
 * again replaces it.
 */
export function registerLocalstripeWebhook(emulator: StripeEmulator, id: string, webhook: { url: string; secret: string; events?: string[] }): Promise<void> {
  return configure(emulator, 'POST', `/_config/webhooks/${encodeURIComponent(id)}`, webhook);
}

/** Forgets every record localstripe holds (registered webhooks stay). */
export function resetLocalstripe(emulator: StripeEmulator): Promise<void> {
  return configure(emulator, 'DELETE', '/_config/data');
}

import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { run } from './processes';
import { startEmulator, type StripeEmulator } from '../stripe/emulator-process';
import { ensureStripeMock } from '../stripe/stripe-mock';

/**
 * stripe-mock whose PaymentIntents have succeeded, for bench:invoices' Stripe route. stripe-mock
 * is stateless: it validates each request against Stripe's OpenAPI document and answers with its
 * bundled fixture, echoing some parameters (amount, currency, customer, payment_method). That
 * fixture's PaymentIntent is `requires_payment_method` with a `last_payment_error`, which the
 * charge path reads as a decline, so no invoice would be PAID. The fixtures given here with
 * `-fixtures` are the bundled ones of the very build, the module's own file, with only that
 * PaymentIntent's status, `last_payment_error` and `next_action` changed: every request is still
 * validated and answered by the same code.
 */
export async function startSucceedingStripeMock(dir: string): Promise<StripeEmulator> {
  const binary = await ensureStripeMock();
  const fixtures = join(dir, 'stripe-mock-fixtures.json');
  await writeFile(fixtures, JSON.stringify(succeeding(JSON.parse(await readFile(await bundledFixtures(binary), 'utf8')))));
  return startEmulator({
    label: 'stripe-mock',
    executable: binary,
    // An HTTPS listener of its own: without one named, stripe-mock also binds :12112, which any other instance holds.
    args: (port) => ['-http-addr', `127.0.0.1:${port}`, '-https-addr', '127.0.0.1:0', '-fixtures', fixtures],
  });
}

/** The fixtures file of the module version the binary was built from, out of Go's module cache (downloaded when absent). */
async function bundledFixtures(binary: string): Promise<string> {
  const module = /^\s*mod\s+(\S+)\s+(\S+)/m.exec(run('go', ['version', '-m', binary]));
  if (!module) throw new Error(`${binary} names no module version`);
  const { Dir } = JSON.parse(run('go', ['mod', 'download', '-json', `${module[1]}@${module[2]}`])) as { Dir: string };
  return join(Dir, 'embedded/openapi/fixtures3.json');
}

type Fixtures = { resources: Record<string, Record<string, unknown>> };

function succeeding(fixtures: Fixtures): Fixtures {
  const intent = fixtures.resources.payment_intent;
  if (!intent) throw new Error('stripe-mock fixtures hold no payment_intent');
  return { ...fixtures, resources: { ...fixtures.resources, payment_intent: { ...intent, status: 'succeeded', last_payment_error: null, next_action: null } } };
}

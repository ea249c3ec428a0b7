import { ensureGoTool } from '../tools/go-tool';
import { startEmulator, type StripeEmulator } from './emulator-process';

/**
 * Stripe's own stateless API emulator, generated from its OpenAPI document: a request it answers
 * is one the real API accepts. Built from source like the other Go tools (its go.mod has no
 * `replace` directive); a new pin is a new build.
 */
const STRIPE_MOCK = { binary: 'stripe-mock', packages: ['github.com/stripe/stripe-mock@v0.203.0'], label: 'stripe-mock' };

export function ensureStripeMock(): Promise<string> {
  return ensureGoTool(STRIPE_MOCK);
}

/** stripe-mock on a free loopback port, plain HTTP only (no HTTPS listener). */
export async function startStripeMock(): Promise<StripeEmulator> {
  const binary = await ensureStripeMock();
  // Without an HTTPS address of its own it binds :12112, which a second emulator (or a developer's) holds.
  return startEmulator({ label: 'stripe-mock', executable: binary, args: (port) => ['-http-addr', `127.0.0.1:${port}`, '-https-addr', '127.0.0.1:'] });
}

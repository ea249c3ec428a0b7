/**
 * STRIPE_API_BASE_EDITABLE (docs/configuration.md): `true` or `1` lets a dashboard admin point
 * the account's Stripe connection at another address (an emulator, in tests). Off, the dashboard
 * keeps the address the operator set: an address chosen in a browser would have the platform send
 * the secret key, and requests, wherever that admin likes. Read at each request.
 */
export function stripeApiBaseEditable(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.STRIPE_API_BASE_EDITABLE === 'true' || env.STRIPE_API_BASE_EDITABLE === '1';
}

/**
 * Where a merchant sees a payment in its provider's own dashboard, when the provider has one: a
 * Stripe PaymentIntent (`pi_…`), or the charge Stripe named for a decline without one (`ch_…`),
 * under Stripe's test data unless the account's connection is live (docs/payments-stripe.md).
 * Any other reference (the sandboxes', our own key where Stripe named nothing) has no link.
 */
export function providerPaymentUrl(provider: string, reference: string, stripeLivemode: boolean): string | undefined {
  if (provider !== 'stripe' || !/^(pi|ch)_[A-Za-z0-9]+$/.test(reference)) return undefined;
  return `https://dashboard.stripe.com/${stripeLivemode ? '' : 'test/'}payments/${reference}`;
}

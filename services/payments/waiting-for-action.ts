import { createProviderRegistry, type ProviderRegistry } from './providers/registry';
import { applyProviderDecision, type DecisionDependencies } from './provider-decisions';
import { providerKeyOf } from './waiting-payments';

/**
 * Before an invoice is charged again: each of its payments still waiting for the customer's
 * authentication (REQUIRES_ACTION) is withdrawn at its provider, so it can no longer complete
 * beside the new charge. One the customer completed meanwhile (its webhook not yet applied)
 * pays the invoice instead, and the new charge is then refused as the invoice is PAID.
 * One indexed read when there are none (payments by invoice); invoices/pay learns it from its
 * claim's lock read instead.
 */
export async function withdrawWaitingPayments(deps: DecisionDependencies & { providers?: ProviderRegistry }, invoiceId: string): Promise<void> {
  const waiting = await deps.db.payment.findMany({ where: { invoiceId, status: 'REQUIRES_ACTION' } });
  if (waiting.length === 0) return;
  const providers = deps.providers ?? createProviderRegistry(deps.db);
  for (const payment of waiting) {
    const provider = payment.provider ? providers.get(payment.provider) : undefined;
    if (!provider) continue;
    const key = providerKeyOf(payment.id, provider.name);
    const answer = provider.cancel
      ? await provider.cancel(key, payment.accountId, payment.providerChargeId)
      : await provider.lookup(key, payment.accountId, payment.providerChargeId);
    if (answer) await applyProviderDecision(deps, payment, answer);
  }
}

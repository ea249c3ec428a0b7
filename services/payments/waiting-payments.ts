import { isWaitingPayment } from '../../domain/payments';
import type { Database } from '../../prisma/client';
import { resolveWaitingPayment, type FinalRecord, type PaymentRow } from './payment-rows';
import type { ProcessedCharge } from './providers/provider';
import type { ProviderRegistry } from './providers/registry';

/** The decline code of a payment waiting for the customer's authentication (SCA). */
export const AUTHENTICATION_REQUIRED = 'authentication_required';

/** The key a payment's provider was asked under: one per payment and provider. */
export function providerKeyOf(paymentId: string, provider: string): string {
  return `${paymentId}/${provider}`;
}

type Resolution = Pick<FinalRecord, 'status' | 'declineCode' | 'declineMessage' | 'retryable' | 'fee'> & { nextActionUrl: string | null };

/**
 * A payment the provider has not decided: REQUIRES_ACTION keeps the invoice payable and counts as
 * a retryable failure for dunning (the customer may authenticate, or another card may be used);
 * AWAITING_PROVIDER is neither, and holds the invoice until the provider decides.
 */
export function waitingFinal(result: Extract<ProcessedCharge, { outcome: 'REQUIRES_ACTION' | 'PROCESSING' }>) {
  return result.outcome === 'REQUIRES_ACTION'
    ? {
        status: 'REQUIRES_ACTION' as const,
        declineCode: AUTHENTICATION_REQUIRED,
        declineMessage: 'The card issuer asks the customer to authenticate this payment (SCA); it completes when they do.',
        retryable: true,
        nextActionUrl: result.nextActionUrl ?? undefined,
      }
    : { status: 'AWAITING_PROVIDER' as const, retryable: false };
}

/** What the provider's answer makes of a waiting payment. */
export function resolutionOf(result: ProcessedCharge): Resolution {
  switch (result.outcome) {
    case 'APPROVED':
      return { status: 'SUCCEEDED', declineCode: null, declineMessage: null, retryable: false, fee: result.fee, nextActionUrl: null };
    case 'HARD_DECLINED':
    case 'SOFT_DECLINED':
      return { status: 'DECLINED', declineCode: result.declineCode, declineMessage: result.message, retryable: result.outcome === 'SOFT_DECLINED', fee: null, nextActionUrl: null };
    case 'REQUIRES_ACTION':
    case 'PROCESSING': {
      const waiting = waitingFinal(result);
      return {
        status: waiting.status,
        declineCode: 'declineCode' in waiting ? (waiting.declineCode ?? null) : null,
        declineMessage: 'declineMessage' in waiting ? (waiting.declineMessage ?? null) : null,
        retryable: waiting.retryable,
        fee: null,
        nextActionUrl: 'nextActionUrl' in waiting ? (waiting.nextActionUrl ?? null) : null,
      };
    }
  }
}

/**
 * Where the provider's answer moves a waiting payment, or null when it stays. A payment waiting
 * for the customer whose authentication is now being processed stays REQUIRES_ACTION: its
 * charge released the invoice's guard, and only REQUIRES_ACTION payments are withdrawn before the
 * invoice is charged again (waiting-for-action.ts), so moving it would let a second charge
 * through beside it.
 */
export function movementOf(payment: PaymentRow, result: ProcessedCharge): Resolution | null {
  if (!isWaitingPayment(payment.status)) return null;
  const to = resolutionOf(result);
  if (payment.status === 'REQUIRES_ACTION' && to.status === 'AWAITING_PROVIDER') return null;
  if (to.status === payment.status && to.nextActionUrl === payment.nextActionUrl) return null;
  return to;
}

/**
 * Records the provider's answer on a waiting payment, from the status it was read in: a webhook,
 * a sweep and a caller racing write it once; the loser reads the winner's. Returns the payment as
 * it stands and whether this call moved it.
 */
export async function applyProviderAnswer(db: Database, now: Date, payment: PaymentRow, result: ProcessedCharge): Promise<{ payment: PaymentRow; moved: boolean }> {
  const to = movementOf(payment, result);
  if (!to) return { payment, moved: false };
  const moved = await resolveWaitingPayment(db, payment, now, to);
  if (moved) return { payment: moved, moved: true };
  return { payment: (await db.payment.findUniqueOrThrow({ where: { id: payment.id } })) as PaymentRow, moved: false };
}

/** Asks the payment's provider where it stands (its books by the payment's key) and records it. */
export async function refreshWaitingPayment(db: Database, providers: ProviderRegistry, now: () => Date, payment: PaymentRow): Promise<PaymentRow> {
  const provider = payment.provider ? providers.get(payment.provider) : undefined;
  if (!provider) return payment;
  const result = await provider.lookup(providerKeyOf(payment.id, provider.name), payment.accountId, payment.providerChargeId);
  if (!result) return payment;
  return (await applyProviderAnswer(db, now(), payment, result)).payment;
}

import type { SandboxScenario } from '../../../domain/cards';

/**
 * What a provider answers to a charge (docs/sandbox.md, docs/payments-stripe.md). REQUIRES_ACTION
 * (the customer must authenticate, SCA) and PROCESSING (the provider decides later) end the
 * cascade without a final answer: the provider's webhook or books settle the payment later.
 */
export const CHARGE_OUTCOMES = ['APPROVED', 'HARD_DECLINED', 'SOFT_DECLINED', 'REQUIRES_ACTION', 'PROCESSING', 'UNAVAILABLE', 'TIMEOUT'] as const;
export type ChargeOutcome = (typeof CHARGE_OUTCOMES)[number];

/** The card as a provider sees it: our instrument id stands for the sandbox's token. */
export interface ProviderCard {
  instrumentId: string;
  brand: string;
  /** Sandbox only: what the tokenized test number told the sandbox to do; null for another provider's card. */
  sandboxScenario: SandboxScenario | null;
  /** The provider holding the card (`stripe`), or null for the sandbox's own tokenized card. */
  provider: string | null;
  /** The provider's ids of the card and of the customer it is attached to. */
  providerReference: string | null;
  providerCustomerReference: string | null;
}

export interface ChargeRequest {
  /** Repeating a request with the same key returns the first result and never charges twice. */
  idempotencyKey: string;
  accountId: string;
  amount: number;
  currency: string;
  card: ProviderCard;
  /** Our ids, kept in the provider's records (Stripe's metadata) so either side finds the other. */
  paymentId: string;
  invoiceId: string | null;
}

/**
 * A processed charge carries the provider's id; UNAVAILABLE and TIMEOUT mean the provider did
 * not process the request as far as the caller can tell, so there is nothing to identify.
 */
export type ChargeResult =
  | { outcome: 'APPROVED'; providerChargeId: string; fee: number }
  | { outcome: 'HARD_DECLINED' | 'SOFT_DECLINED'; providerChargeId: string; declineCode: string; message: string }
  | { outcome: 'REQUIRES_ACTION'; providerChargeId: string; nextActionUrl: string | null }
  | { outcome: 'PROCESSING'; providerChargeId: string }
  | { outcome: 'UNAVAILABLE' | 'TIMEOUT' };

export type ProcessedCharge = Exclude<ChargeResult, { outcome: 'UNAVAILABLE' | 'TIMEOUT' }>;

export interface RefundRequest {
  /** Repeating a refund with the same key returns the first refund and never refunds twice. */
  idempotencyKey: string;
  accountId: string;
  /** The provider's id of the approved charge being refunded. */
  providerChargeId: string;
  /** Positive, in minor units of the charge's currency. */
  amount: number;
}

/**
 * A refund the provider made, or its refusal: the charge is not an approved one of this
 * provider, or the refunds of it would exceed what it charged.
 */
export type RefundResult =
  | { outcome: 'REFUNDED'; providerRefundId: string }
  | { outcome: 'PENDING'; providerRefundId: string }
  | { outcome: 'REJECTED'; code: 'charge_not_found' | 'refund_exceeds_charge' | 'refund_failed' | 'provider_unavailable'; message: string };

export interface PaymentProvider {
  readonly name: string;
  charge(request: ChargeRequest): Promise<ChargeResult>;
  /**
   * What the provider holds under a key, as it stands now: how a caller learns the fate of a
   * request that timed out, and how a payment waiting for the provider is brought up to date.
   * `knownChargeId`: the provider's id of the charge when the payment recorded one already.
   */
  lookup(idempotencyKey: string, accountId: string, knownChargeId?: string | null): Promise<ProcessedCharge | null>;
  /**
   * Withdraws a charge still waiting for the customer (REQUIRES_ACTION) so it can never complete,
   * answering where it ended: declined once withdrawn, or approved if the customer got there
   * first. Only providers that can wait for a customer have it.
   */
  cancel?(idempotencyKey: string, accountId: string, knownChargeId?: string | null): Promise<ProcessedCharge | null>;
}

/** Apart from `PaymentProvider` so the charge path (and its test doubles) need not know refunds. */
export interface RefundingProvider {
  readonly name: string;
  /** Gives back all or part of an approved charge; the provider's fee is not returned. */
  refund(request: RefundRequest): Promise<RefundResult>;
}

/** Thrown when a key is reused for another charge or refund: a bug in the caller, never retried into a charge. */
export class ProviderRequestMismatch extends Error {
  constructor(provider: string, idempotencyKey: string, what: 'charge' | 'refund' = 'charge') {
    super(`${provider} already holds a different ${what} under idempotency key ${idempotencyKey}.`);
    this.name = 'ProviderRequestMismatch';
  }
}

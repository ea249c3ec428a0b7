import type { SandboxScenario } from '../../../domain/cards';

/** What a provider answers to a charge (docs/sandbox.md). */
export const CHARGE_OUTCOMES = ['APPROVED', 'HARD_DECLINED', 'SOFT_DECLINED', 'UNAVAILABLE', 'TIMEOUT'] as const;
export type ChargeOutcome = (typeof CHARGE_OUTCOMES)[number];

/** The card as a provider sees it: our instrument id stands for the provider-side token. */
export interface ProviderCard {
  instrumentId: string;
  brand: string;
  /** Sandbox only: what the tokenized test number told the sandbox to do. */
  sandboxScenario: SandboxScenario;
}

export interface ChargeRequest {
  /** Repeating a request with the same key returns the first result and never charges twice. */
  idempotencyKey: string;
  amount: number;
  currency: string;
  card: ProviderCard;
}

/**
 * A processed charge carries the provider's id; UNAVAILABLE and TIMEOUT mean the provider did
 * not process the request as far as the caller can tell, so there is nothing to identify.
 */
export type ChargeResult =
  | { outcome: 'APPROVED'; providerChargeId: string; fee: number }
  | { outcome: 'HARD_DECLINED' | 'SOFT_DECLINED'; providerChargeId: string; declineCode: string; message: string }
  | { outcome: 'UNAVAILABLE' | 'TIMEOUT' };

export type ProcessedCharge = Exclude<ChargeResult, { outcome: 'UNAVAILABLE' | 'TIMEOUT' }>;

export interface RefundRequest {
  /** Repeating a refund with the same key returns the first refund and never refunds twice. */
  idempotencyKey: string;
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
  | { outcome: 'REJECTED'; code: 'charge_not_found' | 'refund_exceeds_charge'; message: string };

export interface PaymentProvider {
  readonly name: string;
  charge(request: ChargeRequest): Promise<ChargeResult>;
  /** What the provider holds under a key: how a caller learns the fate of a request that timed out. */
  lookup(idempotencyKey: string): Promise<ProcessedCharge | null>;
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

import type { SandboxScenario } from '../../../domain/cards';
import type { Database } from '../../../prisma/client';
import type { PaymentProvider, RefundingProvider } from './provider';
import { sandboxProvider, type SandboxOutcome, type SandboxProfile } from './sandbox-provider';
import { STRIPE_PROVIDER, stripeProvider } from './stripe/stripe-provider';

/** The scenarios every sandbox provider treats alike; `*_ON_ALPHA` ones differ per provider. */
function sharedOutcome(scenario: SandboxScenario): SandboxOutcome | undefined {
  switch (scenario) {
    case 'APPROVE':
      return 'APPROVED';
    case 'HARD_DECLINE':
      return 'HARD_DECLINED';
    case 'SOFT_DECLINE':
      return 'SOFT_DECLINED';
    case 'UNAVAILABLE':
      return 'UNAVAILABLE';
    case 'TIMEOUT':
      return 'TIMEOUT';
    default:
      return undefined;
  }
}

export const SANDBOX_PROVIDER_NAMES = ['sandbox-alpha', 'sandbox-beta'] as const;
type SandboxProviderName = (typeof SANDBOX_PROVIDER_NAMES)[number];

/** What a route may name: the sandboxes, and Stripe for accounts connected to it (docs/payments-stripe.md). */
export const PROVIDER_NAMES = [...SANDBOX_PROVIDER_NAMES, STRIPE_PROVIDER] as const;

/** docs/sandbox.md publishes these fees and the table of outcomes. */
export const SANDBOX_PROFILES: Readonly<Record<SandboxProviderName, SandboxProfile>> = {
  'sandbox-alpha': {
    name: 'sandbox-alpha',
    fee: { basisPoints: 290, fixed: 30 },
    outcomeOf: (scenario) =>
      sharedOutcome(scenario) ?? (scenario === 'SOFT_DECLINE_ON_ALPHA' ? 'SOFT_DECLINED' : 'TIMEOUT'),
  },
  'sandbox-beta': {
    name: 'sandbox-beta',
    fee: { basisPoints: 250, fixed: 25 },
    outcomeOf: (scenario) => sharedOutcome(scenario) ?? 'APPROVED',
  },
};

export type ProviderRegistry = ReadonlyMap<string, PaymentProvider>;

function providers(db: Database): Array<[string, PaymentProvider & RefundingProvider]> {
  return [...SANDBOX_PROVIDER_NAMES.map((name) => [name, sandboxProvider(db, SANDBOX_PROFILES[name])] as [string, PaymentProvider & RefundingProvider]), [STRIPE_PROVIDER, stripeProvider(db)]];
}

export function createProviderRegistry(db: Database): ProviderRegistry {
  return new Map(providers(db));
}

/** The same providers as refunders: a refund goes back to the provider that charged. */
export type RefundRegistry = ReadonlyMap<string, RefundingProvider>;

export function createRefundRegistry(db: Database): RefundRegistry {
  return new Map(providers(db));
}

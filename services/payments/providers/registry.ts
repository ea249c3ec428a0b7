import type { SandboxScenario } from '../../../domain/cards';
import type { Database } from '../../../prisma/client';
import type { ChargeOutcome, PaymentProvider, RefundingProvider } from './provider';
import { sandboxProvider, type SandboxProfile } from './sandbox-provider';

/** The scenarios every sandbox provider treats alike; `*_ON_ALPHA` ones differ per provider. */
function sharedOutcome(scenario: SandboxScenario): ChargeOutcome | undefined {
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

export const PROVIDER_NAMES = ['sandbox-alpha', 'sandbox-beta'] as const;
export type ProviderName = (typeof PROVIDER_NAMES)[number];

/** docs/sandbox.md publishes these fees and the table of outcomes. */
export const SANDBOX_PROFILES: Readonly<Record<ProviderName, SandboxProfile>> = {
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

export function createProviderRegistry(db: Database): ProviderRegistry {
  return new Map(PROVIDER_NAMES.map((name) => [name, sandboxProvider(db, SANDBOX_PROFILES[name])]));
}

/** The same providers as refunders: a refund goes back to the provider that charged. */
export type RefundRegistry = ReadonlyMap<string, RefundingProvider>;

export function createRefundRegistry(db: Database): RefundRegistry {
  return new Map(PROVIDER_NAMES.map((name) => [name, sandboxProvider(db, SANDBOX_PROFILES[name])]));
}

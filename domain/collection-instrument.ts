/**
 * The instrument an automatic collection charges (services/payments/collect.ts): the one the
 * invoice or subscription names while it is ACTIVE, else the customer's default, else the named
 * inactive one (the charge path then declines it, saying why). The customer portal asks the same
 * question to tell which cards a live subscription still needs.
 */
export function collectionInstrumentOf(named: { id: string; status: string } | null, defaultInstrumentId: string | undefined): string | undefined {
  if (named?.status === 'ACTIVE') return named.id;
  return defaultInstrumentId ?? named?.id;
}

/**
 * Card numbers as the sandbox understands them. Numbers are only ever held in memory while a
 * card is tokenized: what is kept is the brand, the last four digits, a keyed fingerprint and
 * the sandbox scenario the number stands for.
 */
export const CARD_BRANDS = ['VISA', 'MASTERCARD', 'AMEX', 'DISCOVER', 'JCB', 'DINERS', 'UNKNOWN'] as const;
export type CardBrand = (typeof CARD_BRANDS)[number];

/**
 * What a sandbox provider does with a card. `*_ON_ALPHA` scenarios misbehave only at
 * `sandbox-alpha`, so a route that cascades to `sandbox-beta` succeeds there.
 */
export const SANDBOX_SCENARIOS = [
  'APPROVE',
  'HARD_DECLINE',
  'SOFT_DECLINE',
  'UNAVAILABLE',
  'TIMEOUT',
  'SOFT_DECLINE_ON_ALPHA',
  'TIMEOUT_ON_ALPHA',
] as const;
export type SandboxScenario = (typeof SANDBOX_SCENARIOS)[number];

/** The documented test cards (docs/sandbox.md). Any other valid number is approved. */
export const TEST_CARDS: Readonly<Record<string, { scenario: SandboxScenario; description: string }>> = {
  '4242424242424242': { scenario: 'APPROVE', description: 'Visa, approved by every provider.' },
  '5555555555554444': { scenario: 'APPROVE', description: 'Mastercard, approved by every provider.' },
  '378282246310005': { scenario: 'APPROVE', description: 'American Express, approved by every provider.' },
  '4000000000000002': { scenario: 'HARD_DECLINE', description: 'Declined by every provider (do not honor): not worth retrying.' },
  '4000000000009995': { scenario: 'SOFT_DECLINE', description: 'Insufficient funds at every provider: worth retrying later.' },
  '4000000000000119': { scenario: 'UNAVAILABLE', description: 'Every provider answers that it is unavailable.' },
  '4000000000000101': { scenario: 'TIMEOUT', description: 'Every provider times out without charging.' },
  '4000000000003220': { scenario: 'SOFT_DECLINE_ON_ALPHA', description: 'Insufficient funds at sandbox-alpha, approved by sandbox-beta.' },
  '4000000000000077': { scenario: 'TIMEOUT_ON_ALPHA', description: 'sandbox-alpha times out without charging, sandbox-beta approves.' },
};

export function luhnValid(digits: string): boolean {
  if (!/^\d{12,19}$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

export function brandOf(digits: string): CardBrand {
  const two = Number(digits.slice(0, 2));
  const four = Number(digits.slice(0, 4));
  if (digits.startsWith('4')) return 'VISA';
  if ((two >= 51 && two <= 55) || (four >= 2221 && four <= 2720)) return 'MASTERCARD';
  if (two === 34 || two === 37) return 'AMEX';
  if (digits.startsWith('6011') || digits.startsWith('65') || (four >= 6440 && four <= 6499)) return 'DISCOVER';
  if (four >= 3528 && four <= 3589) return 'JCB';
  if (two === 36 || two === 38 || (four >= 3000 && four <= 3059)) return 'DINERS';
  return 'UNKNOWN';
}

export function scenarioOf(digits: string): SandboxScenario {
  return TEST_CARDS[digits]?.scenario ?? 'APPROVE';
}

/** The last moment a card expiring in `month`/`year` can be charged: the end of that month, UTC. */
export function endOfExpiryMonth(month: number, year: number): Date {
  return new Date(Date.UTC(year, month, 1));
}

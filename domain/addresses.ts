import type { CountryCode } from './countries';

/**
 * Section 2.2, `business_details.legal_address`: the "address with state" shape is the one for
 * these countries, whose postal systems need the state, province or region. A legal address
 * in one of them must name its state; any other country uses the plain shape, where a state
 * is optional and kept as given.
 */
export const STATE_REQUIRED_COUNTRIES = ['AUS', 'BRA', 'CAN', 'CHN', 'IND', 'KOR', 'MEX', 'MYS', 'NZL', 'USA'] as const satisfies readonly CountryCode[];

const stateRequired: ReadonlySet<string> = new Set(STATE_REQUIRED_COUNTRIES);

export function requiresState(country: string): boolean {
  return stateRequired.has(country);
}

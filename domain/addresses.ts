import type { CountryCode } from './countries';

/**
 * Section 2.2, `business_details.legal_address`: the countries of the "address with state"
 * shape. The other shape, "address", takes any country with the state optional, so an address
 * in one of these without a state is still a valid legal address; the list only names the
 * response variant that carries a state.
 */
export const STATE_SHAPE_COUNTRIES = ['AUS', 'BRA', 'CAN', 'CHN', 'IND', 'KOR', 'MEX', 'MYS', 'NZL', 'USA'] as const satisfies readonly CountryCode[];

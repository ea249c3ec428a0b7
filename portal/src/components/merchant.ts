import { createContext, useContext } from 'react';

/** The merchant's name (the account's), for words like "Back to Acme"; empty before it is known. */
export const MerchantContext = createContext('');

export function useMerchantName(): string {
  return useContext(MerchantContext);
}

import { createContext, useContext } from 'react';
import type { Customer, PortalSessionInfo } from './api/types';

export interface PortalSession {
  info: PortalSessionInfo;
  /** After a change answered with the customer (billing details, the default card): the pages show it at once. */
  customerChanged(customer: Customer): void;
}

const SessionContext = createContext<PortalSession | null>(null);
export const SessionProvider = SessionContext.Provider;

/** The portal session; only pages rendered inside a started session call it. */
export function useSession(): PortalSession {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside a portal session');
  return session;
}

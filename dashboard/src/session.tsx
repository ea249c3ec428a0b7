import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createContext, useContext } from 'react';
import { fetchMe, type Me } from './api/session';

export const ME_KEY = ['session', 'me'] as const;

export function useMeQuery() {
  return useQuery({ queryKey: ME_KEY, queryFn: fetchMe, staleTime: 60_000 });
}

const MeContext = createContext<Me | null>(null);
export const MeProvider = MeContext.Provider;

/** The signed-in user; only pages rendered inside the signed-in shell call it. */
export function useMe(): Me {
  const me = useContext(MeContext);
  if (!me) throw new Error('useMe outside the signed-in shell');
  return me;
}

export function useCan(): (permission: string) => boolean {
  const me = useMe();
  return (permission) => me.permissions.includes(permission);
}

/** After sign-in or accepting an invitation: ask the server who we are, drop everything else cached. */
export function useSessionChanged(): () => Promise<void> {
  const client = useQueryClient();
  return async () => {
    client.removeQueries({ predicate: (query) => query.queryKey[0] !== ME_KEY[0] });
    await client.invalidateQueries({ queryKey: ME_KEY });
  };
}

/** After sign-out: nobody is signed in, and nothing the previous user saw stays cached. */
export function useSignedOut(): () => void {
  const client = useQueryClient();
  return () => {
    client.removeQueries({ predicate: (query) => query.queryKey[0] !== ME_KEY[0] });
    client.setQueryData(ME_KEY, null);
  };
}

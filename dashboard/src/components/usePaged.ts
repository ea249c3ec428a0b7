import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';

export interface Paged<T> {
  items: T[];
  isLoading: boolean;
  error: unknown;
  pageNumber: number;
  hasNext: boolean;
  hasPrevious: boolean;
  next(): void;
  previous(): void;
  refetch(): void;
}

/**
 * One page of a cursor-paged list at a time: the tokens already walked are kept so Previous
 * goes back without the API offering backwards cursors; changing `key` starts over.
 */
export function usePaged<T>(
  key: readonly unknown[],
  fetchPage: (token: string | undefined) => Promise<{ items: T[]; next: string | undefined }>,
): Paged<T> {
  const [trail, setTrail] = useState<{ key: string; tokens: (string | undefined)[] }>({ key: JSON.stringify(key), tokens: [undefined] });
  const keyText = JSON.stringify(key);
  const tokens = trail.key === keyText ? trail.tokens : [undefined];
  const token = tokens[tokens.length - 1];
  const query = useQuery({ queryKey: [...key, token], queryFn: () => fetchPage(token), placeholderData: keepPreviousData });
  const nextToken = query.data?.next;
  return {
    items: query.data?.items ?? [],
    isLoading: query.isLoading,
    error: query.error,
    pageNumber: tokens.length,
    hasNext: Boolean(nextToken) && !query.isPlaceholderData,
    hasPrevious: tokens.length > 1,
    next: () => nextToken && setTrail({ key: keyText, tokens: [...tokens, nextToken] }),
    previous: () => setTrail({ key: keyText, tokens: tokens.slice(0, -1) }),
    refetch: () => void query.refetch(),
  };
}

import { useSyncExternalStore, type AnchorHTMLAttributes, type MouseEvent } from 'react';

/** Every portal URL lives under this prefix, which the API serves (api/http/portal-static.ts). */
export const BASE = '/portal';

const NAVIGATED = 'portal:navigate';

function subscribe(onChange: () => void): () => void {
  window.addEventListener('popstate', onChange);
  window.addEventListener(NAVIGATED, onChange);
  return () => {
    window.removeEventListener('popstate', onChange);
    window.removeEventListener(NAVIGATED, onChange);
  };
}

const snapshot = () => window.location.pathname + window.location.search;

export interface Location {
  /** The path below BASE, always starting with `/`. */
  path: string;
  query: URLSearchParams;
}

export function useLocation(): Location {
  const current = useSyncExternalStore(subscribe, snapshot);
  const url = new URL(current, window.location.origin);
  const path = url.pathname.startsWith(BASE) ? url.pathname.slice(BASE.length) || '/' : url.pathname;
  return { path: path.length > 1 ? path.replace(/\/$/, '') : path, query: url.searchParams };
}

function navigate(to: string): void {
  window.history.pushState(null, '', `${BASE}${to}`);
  window.dispatchEvent(new Event(NAVIGATED));
}

/** `/invoices/:token` against `/invoices/inv_1.sig` → `{ token: 'inv_1.sig' }`, or null. */
export function match(pattern: string, path: string): Record<string, string> | null {
  const want = pattern.split('/');
  const got = path.split('/');
  if (want.length !== got.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    if (want[i]!.startsWith(':')) params[want[i]!.slice(1)] = decodeURIComponent(got[i]!);
    else if (want[i] !== got[i]) return null;
  }
  return params;
}

type LinkProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> & { to: string };

export function Link({ to, onClick, ...rest }: LinkProps) {
  const handle = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(to);
  };
  return <a href={`${BASE}${to}`} onClick={handle} {...rest} />;
}

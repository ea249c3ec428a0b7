import type { ReactNode } from 'react';

/** A success said once, politely announced (role=status) without taking focus. */
export function Notice({ children }: { children: ReactNode }) {
  if (!children) return null;
  return (
    <p role="status" className="notice">
      {children}
    </p>
  );
}

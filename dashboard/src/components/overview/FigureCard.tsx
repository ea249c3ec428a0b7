import type { ReactNode } from 'react';

/**
 * One figure of the period with the previous period's beside it and the change, a region named by
 * its label so a screen reader can jump to it (and a test can find it).
 */
export function FigureCard({ id, label, value, previous, change, children }: { id: string; label: string; value: string; previous?: string; change?: string; children?: ReactNode }) {
  return (
    <section className="figure-card" aria-labelledby={`${id}-label`} data-testid={id}>
      <h3 id={`${id}-label`}>{label}</h3>
      <p className="figure-value" data-testid={`${id}-value`}>
        {value}
      </p>
      {previous !== undefined ? (
        <p className="figure-previous">
          Previous period: <span data-testid={`${id}-previous`}>{previous}</span>
        </p>
      ) : null}
      {change !== undefined ? (
        <p className="figure-change">
          Change: <span data-testid={`${id}-change`}>{change}</span>
        </p>
      ) : null}
      {children}
    </section>
  );
}

import { useEffect, useId, useRef, type KeyboardEvent, type ReactNode } from 'react';

/**
 * A confirmation in the page's flow rather than a modal: it takes focus at its heading when it
 * opens, Escape closes it, and the person reads what will happen before the button that does it.
 */
export function ConfirmPanel({ heading, onDismiss, children }: { heading: string; onDismiss(): void; children: ReactNode }) {
  const headingId = useId();
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => ref.current?.focus(), []);
  const escape = (event: KeyboardEvent) => {
    if (event.key === 'Escape') {
      event.stopPropagation();
      onDismiss();
    }
  };
  return (
    <section className="confirm" aria-labelledby={headingId} onKeyDown={escape}>
      <h3 id={headingId} ref={ref} tabIndex={-1}>
        {heading}
      </h3>
      {children}
    </section>
  );
}

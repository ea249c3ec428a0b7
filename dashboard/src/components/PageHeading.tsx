import { useEffect, useRef, type ReactNode } from 'react';

/**
 * The page's h1. It takes focus when the page opens, so a keyboard or screen-reader user
 * lands at the top of the new content after every navigation, and names the document.
 */
export function PageHeading({ children, title }: { children: ReactNode; title: string }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${title} · Billing dashboard`;
    ref.current?.focus();
  }, [title]);
  return (
    <h1 ref={ref} tabIndex={-1}>
      {children}
    </h1>
  );
}

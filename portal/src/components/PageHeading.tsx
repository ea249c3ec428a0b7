import { useEffect, useRef, type ReactNode } from 'react';
import { useI18n } from '../i18n/I18n';

/**
 * The page's one h1. It takes focus when the page opens, so a keyboard or screen-reader user
 * lands at the top of the new content after every navigation, and names the document.
 */
export function PageHeading({ children, title }: { children: ReactNode; title: string }) {
  const { t } = useI18n();
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${title} · ${t.common.portal}`;
  }, [title, t]);
  useEffect(() => ref.current?.focus(), []);
  return (
    <h1 ref={ref} tabIndex={-1}>
      {children}
    </h1>
  );
}

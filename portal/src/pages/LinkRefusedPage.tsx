import { PageHeading } from '../components/PageHeading';
import { useInteractiveWhen } from '../components/interactive';
import { useI18n } from '../i18n/I18n';
import type { LinkRefusal } from '../i18n/en';

const REASONS: readonly string[] = ['INVALID', 'USED', 'EXPIRED', 'CUSTOMER_REMOVED'] satisfies LinkRefusal[];

/** Where `GET /portal/open/<token>` sends a link it refuses: the reason in words, no customer named. */
export function LinkRefusedPage({ reason }: { reason: string | null }) {
  const { t } = useI18n();
  useInteractiveWhen(true);
  const known = reason !== null && REASONS.includes(reason);
  return (
    <>
      <PageHeading title={t.linkRefused.title}>{t.linkRefused.title}</PageHeading>
      <p>{known ? t.linkRefused.reasons[reason as LinkRefusal] : t.linkRefused.unknownReason}</p>
      <p>{t.linkRefused.advice}</p>
    </>
  );
}

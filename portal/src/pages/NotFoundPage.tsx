import { PageHeading } from '../components/PageHeading';
import { useInteractiveWhen } from '../components/interactive';
import { useI18n } from '../i18n/I18n';

export function NotFoundPage() {
  const { t } = useI18n();
  useInteractiveWhen(true);
  return (
    <>
      <PageHeading title={t.notFound.title}>{t.notFound.title}</PageHeading>
      <p>{t.notFound.text}</p>
    </>
  );
}

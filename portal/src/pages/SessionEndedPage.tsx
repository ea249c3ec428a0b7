import { PageHeading } from '../components/PageHeading';
import { useInteractiveWhen } from '../components/interactive';
import { useMerchantName } from '../components/merchant';
import { useI18n } from '../i18n/I18n';

/** Shown on any 401: the session expired, was ended, or its customer is no longer active. */
export function SessionEndedPage({ returnUrl }: { returnUrl: string | null }) {
  const { t } = useI18n();
  const merchant = useMerchantName();
  useInteractiveWhen(true);
  return (
    <>
      <PageHeading title={t.sessionEnded.title}>{t.sessionEnded.title}</PageHeading>
      <p>{t.sessionEnded.text}</p>
      <p>{merchant ? t.sessionEnded.again(merchant) : t.sessionEnded.againWithoutMerchant}</p>
      {returnUrl && merchant && (
        <p>
          <a href={returnUrl}>{t.common.backTo(merchant)}</a>
        </p>
      )}
    </>
  );
}

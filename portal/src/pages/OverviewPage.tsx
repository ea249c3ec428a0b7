import type { Subscription } from '../api/types';
import { usePaged } from '../api/usePaged';
import { ErrorMessage } from '../components/ErrorMessage';
import { useInteractiveWhen } from '../components/interactive';
import { PageHeading } from '../components/PageHeading';
import { SubscriptionPanel } from '../components/SubscriptionPanel';
import { useI18n } from '../i18n/I18n';

/** The portal's first page: the customer's subscriptions, each with its next invoice and what may be changed. */
export function OverviewPage() {
  const { t } = useI18n();
  const subscriptions = usePaged<Subscription>('subscriptions/list');
  useInteractiveWhen(subscriptions.loaded);
  return (
    <>
      <PageHeading title={t.subscriptions.title}>{t.subscriptions.title}</PageHeading>
      {!subscriptions.loaded && <p role="status">{t.common.loading}</p>}
      <ErrorMessage error={subscriptions.error} />
      {subscriptions.loaded && !subscriptions.error && subscriptions.items.length === 0 && <p>{t.subscriptions.none}</p>}
      {subscriptions.items.map((subscription) => (
        <SubscriptionPanel key={subscription.id} subscription={subscription} onChanged={subscriptions.replace} />
      ))}
      {subscriptions.hasMore && (
        <button type="button" className="secondary" onClick={subscriptions.more} disabled={subscriptions.pending}>
          {t.common.showMore}
        </button>
      )}
    </>
  );
}

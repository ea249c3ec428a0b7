import { portalCall } from '../api/call';
import type { Subscription, SubscriptionPreview } from '../api/types';
import { useLoad } from '../api/useLoad';
import { useI18n } from '../i18n/I18n';
import { ErrorMessage } from './ErrorMessage';
import { InvoiceLines } from './InvoiceLines';

/**
 * The subscription's next invoice as the platform would issue it now (`subscriptions/preview`,
 * `invoices/preview` underneath): fixed lines and usage measured so far. Read again whenever the
 * subscription changes.
 */
export function NextInvoice({ subscription }: { subscription: Subscription }) {
  const { t, date } = useI18n();
  const preview = useLoad(`${subscription.id}@${subscription.updated_at}`, () => portalCall<SubscriptionPreview>('subscriptions/preview', { id: subscription.id }));
  return (
    <div className="next-invoice">
      <h3>{t.subscriptions.nextInvoice}</h3>
      {preview.pending && !preview.data && <p role="status">{t.common.loading}</p>}
      <ErrorMessage error={preview.error} />
      {preview.data &&
        (preview.data.next_invoice ? (
          <InvoiceLines
            caption={`${t.subscriptions.nextInvoiceIssued(date(preview.data.next_invoice.issued_at))}: ${
              preview.data.next_invoice.period.end_at
                ? t.period.range(date(preview.data.next_invoice.period.start_at), date(preview.data.next_invoice.period.end_at))
                : date(preview.data.next_invoice.period.start_at)
            }`}
            invoice={preview.data.next_invoice}
            toDate
          />
        ) : (
          <p>{t.subscriptions.noNextInvoice}</p>
        ))}
    </div>
  );
}

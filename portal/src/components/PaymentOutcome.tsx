import type { InvoicePayResult } from '../api/types';
import { useI18n } from '../i18n/I18n';
import { Notice } from './Notice';

/**
 * What a charge came to, in words: a decline is an answer (HTTP 200) with the payment's status and
 * code, said as an alert with what the customer can do; authentication links to the bank's page.
 */
export function PaymentOutcome({ payment }: { payment: InvoicePayResult['payment'] }) {
  const { t } = useI18n();
  if (payment.status === 'SUCCEEDED' || payment.status === 'PENDING') return <Notice>{t.status.payment[payment.status]}</Notice>;
  if (payment.status === 'REQUIRES_ACTION') {
    return (
      <div role="alert">
        <p>{t.status.payment.REQUIRES_ACTION}</p>
        {payment.next_action_url && (
          <p>
            <a href={payment.next_action_url}>{t.invoices.confirmAction}</a>
          </p>
        )}
      </div>
    );
  }
  const declines: Record<string, string> = t.status.decline;
  return (
    <div role="alert" className="error">
      <p>{t.status.payment[payment.status]}</p>
      {payment.decline_code && declines[payment.decline_code] && <p>{declines[payment.decline_code]}</p>}
    </div>
  );
}

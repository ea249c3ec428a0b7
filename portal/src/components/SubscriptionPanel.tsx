import { useId, useRef, useState } from 'react';
import { customerMayUndoCancellation } from '../../../domain/portal/rules';
import { LIVE_SUBSCRIPTION_STATUSES } from '../../../domain/subscription-status';
import { portalCall } from '../api/call';
import type { Subscription, SubscriptionLine } from '../api/types';
import { useAction } from '../api/useAction';
import { useI18n } from '../i18n/I18n';
import { CancelSubscription } from './CancelSubscription';
import { ChangeSubscription } from './ChangeSubscription';
import { ErrorMessage } from './ErrorMessage';
import { NextInvoice } from './NextInvoice';
import { Notice } from './Notice';
import { productNames } from './productNames';

function useBilling(): (line: SubscriptionLine) => string {
  const { t } = useI18n();
  return (line) =>
    line.billing_type === 'USAGE'
      ? t.period.usage
      : line.billing_type === 'ONE_TIME' || !line.billing_period_config
        ? t.period.oneTime
        : t.period.every(line.billing_period_config);
}

/** One subscription: its status, items, next invoice, and what the merchant lets the customer do with it. */
export function SubscriptionPanel({ subscription, onChanged }: { subscription: Subscription; onChanged(subscription: Subscription): void }) {
  const { t, date, money, quantity } = useI18n();
  const billing = useBilling();
  const headingId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const [notice, setNotice] = useState('');
  const undo = useAction(() => portalCall<Subscription>('subscriptions/undo-cancel', { id: subscription.id }));

  const changed = (next: Subscription, words: string) => {
    onChanged(next);
    setNotice(words);
    // The control that was used is gone with the change: the subscription's heading takes focus, then the notice is read.
    requestAnimationFrame(() => heading.current?.focus());
  };
  const undoCancellation = async () => {
    const answer = await undo.run();
    if (answer) changed(answer, t.subscriptions.undone);
  };

  const ended = !(LIVE_SUBSCRIPTION_STATUSES as readonly string[]).includes(subscription.status);
  const cancellation = subscription.cancellation_info;
  const scheduled = !ended && cancellation?.mode === 'PERIOD_END';
  return (
    <section className="panel" aria-labelledby={headingId}>
      <h2 id={headingId} ref={heading} tabIndex={-1}>
        {productNames(subscription)}
      </h2>
      <dl className="facts">
        <dt>{t.common.status}</dt>
        <dd>
          <span className={`status status-${subscription.status.toLowerCase()}`}>{t.status.subscription[subscription.status]}</span>
        </dd>
        {subscription.started_at && (
          <>
            <dt>{t.subscriptions.started}</dt>
            <dd>{date(subscription.started_at)}</dd>
          </>
        )}
        {!ended && subscription.next_billing_at && !scheduled && (
          <>
            <dt>{t.subscriptions.nextBilling}</dt>
            <dd>{date(subscription.next_billing_at)}</dd>
          </>
        )}
        {!ended && subscription.ends_at && (
          <>
            <dt>{t.subscriptions.endsAt}</dt>
            <dd>{date(subscription.ends_at)}</dd>
          </>
        )}
      </dl>
      {scheduled && cancellation && (
        <div className="scheduled">
          <p>{t.subscriptions.scheduledCancel(date(cancellation.cancel_at))}</p>
          {customerMayUndoCancellation(cancellation) && (
            <button type="button" onClick={() => void undoCancellation()} disabled={undo.pending}>
              {t.subscriptions.undoCancel}
            </button>
          )}
          <ErrorMessage error={undo.error} />
        </div>
      )}
      {subscription.status === 'CANCELLED' && cancellation && (
        <p>{t.subscriptions.cancelledOn(date(cancellation.cancel_at), t.status.cancellationReason[cancellation.reason])}</p>
      )}
      <Notice>{notice}</Notice>
      <table>
        <caption>{t.subscriptions.items}</caption>
        <thead>
          <tr>
            <th scope="col">{t.subscriptions.product}</th>
            <th scope="col" className="number">
              {t.common.quantity}
            </th>
            <th scope="col" className="number">
              {t.common.unitPrice}
            </th>
            <th scope="col">{t.subscriptions.billing}</th>
            <th scope="col">{t.subscriptions.currentPeriod}</th>
          </tr>
        </thead>
        <tbody>
          {subscription.line_items.map((line) => (
            <tr key={line.id}>
              <td>{line.product_info.name}</td>
              <td className="number">{line.billing_type === 'USAGE' ? '—' : quantity(line.quantity)}</td>
              <td className="number">{line.billing_type === 'USAGE' ? '—' : money(line.amount, line.currency)}</td>
              <td>{billing(line)}</td>
              <td>{line.period.end_at ? t.period.range(date(line.period.start_at), date(line.period.end_at)) : date(line.period.start_at)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {!ended && <NextInvoice subscription={subscription} />}
      {!ended && !cancellation && (
        <div className="actions" key={subscription.updated_at}>
          <ChangeSubscription subscription={subscription} onChanged={changed} />
          <CancelSubscription subscription={subscription} onCancelled={changed} />
        </div>
      )}
    </section>
  );
}

import { useQueries } from '@tanstack/react-query';
import type { InvoicePreview, InvoicePreviewLine, Subscription } from '../api/types';
import { v2 } from '../api/v2';
import { ErrorMessage } from './ErrorMessage';
import { dateTime, money } from './format';

/** A usage line's quantity and the span it measured, in words (docs/usage.md, "Invoices"). */
function usageOf(line: InvoicePreviewLine): string {
  if (!line.usage) return '—';
  const span = `${dateTime(line.usage.period.start_at)} to ${dateTime(line.usage.period.end_at)}`;
  if (line.usage.kind === 'ADJUSTMENT') {
    const billed = line.usage.previously_billed;
    return `Adjustment for late usage: ${line.usage.quantity} from ${span}${billed ? `, ${billed.quantity} billed before` : ''}`;
  }
  return `${line.usage.quantity} from ${span}, to date`;
}

function NextInvoice({ subscription, preview }: { subscription: Subscription; preview: InvoicePreview | null }) {
  if (!preview) return <p>Subscription {subscription.id}: no cycle will bill.</p>;
  return (
    <table>
      <caption>
        Next invoice of subscription {subscription.id}, issued {dateTime(preview.issued_at)} for {dateTime(preview.period.start_at)} to{' '}
        {dateTime(preview.period.end_at)}: {money(preview.total_amount, preview.currency)}, {money(preview.amount_due, preview.currency)} due
      </caption>
      <thead>
        <tr>
          <th scope="col">Description</th>
          <th scope="col">Quantity</th>
          <th scope="col">Usage</th>
          <th scope="col">Amount</th>
        </tr>
      </thead>
      <tbody>
        {preview.line_items.map((line, index) => (
          <tr key={index}>
            <td>{line.description ?? '—'}</td>
            <td>{line.quantity}</td>
            <td>{usageOf(line)}</td>
            <td>{money(line.amount_details.subtotal, line.currency)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * The next invoice of each subscription as invoices/preview computes it with the code that bills:
 * fixed lines and usage to date (docs/invoice-preview.md). Nothing is written.
 */
export function UpcomingInvoices({ subscriptions }: { subscriptions: Subscription[] }) {
  const previews = useQueries({
    queries: subscriptions.map((subscription) => ({
      queryKey: ['subscriptions', subscription.id, 'preview'],
      queryFn: () => v2<{ next_invoice: InvoicePreview | null }>('/v2/invoices/preview', { subscription_id: subscription.id }),
    })),
  });
  if (subscriptions.length === 0) return <p>No subscription will bill: nothing upcoming.</p>;
  return (
    <>
      {subscriptions.map((subscription, index) => {
        const preview = previews[index]!;
        if (preview.error) return <ErrorMessage key={subscription.id} error={preview.error} />;
        if (!preview.data) return <p key={subscription.id} role="status">Loading the next invoice of {subscription.id}…</p>;
        return <NextInvoice key={subscription.id} subscription={subscription} preview={preview.data.next_invoice} />;
      })}
    </>
  );
}

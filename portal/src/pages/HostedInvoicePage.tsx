import { useState } from 'react';
import { portalCall } from '../api/call';
import { RequestFailed } from '../api/errors';
import { useIdempotencyKey } from '../api/idempotency';
import type { CardInput, HostedInvoice, Invoice, InvoicePayResult } from '../api/types';
import { useAction } from '../api/useAction';
import { useLoad } from '../api/useLoad';
import { CardForm, useCardFieldLabel } from '../components/CardForm';
import { ErrorMessage } from '../components/ErrorMessage';
import { InvoiceLines } from '../components/InvoiceLines';
import { useInteractiveWhen } from '../components/interactive';
import { PageHeading } from '../components/PageHeading';
import { PaymentOutcome } from '../components/PaymentOutcome';
import { StripeCardForm } from '../components/StripeCardForm';
import { useI18n } from '../i18n/I18n';

const PAYABLE: readonly Invoice['status'][] = ['OPEN', 'DUNNING', 'UNPAID'];

type PayBody = { token: string; card: CardInput } | { token: string; setup_intent_id: string };

/**
 * The public page of an invoice's `hosted_invoice_url` (docs/portal.md, "Hosted invoice pages"):
 * no session, the signed token in the path. It shows the invoice and its PDF and, while it is
 * payable, takes a card: the sandbox form, or Stripe Elements for a Stripe-connected account.
 */
export function HostedInvoicePage({ token }: { token: string }) {
  const { t, date } = useI18n();
  const loaded = useLoad(token, () => portalCall<HostedInvoice>('hosted-invoices/get', { token }));
  const [paid, setPaid] = useState<InvoicePayResult | undefined>(undefined);
  useInteractiveWhen(!loaded.pending);

  if (loaded.pending && !loaded.data) return <p role="status">{t.common.loading}</p>;
  if (!loaded.data) {
    const missing = loaded.error instanceof RequestFailed && loaded.error.status === 404;
    return (
      <>
        <PageHeading title={t.hosted.notFoundTitle}>{t.hosted.notFoundTitle}</PageHeading>
        {missing ? <p role="alert">{t.hosted.notFound}</p> : <ErrorMessage error={loaded.error} />}
      </>
    );
  }
  const { account, payment_provider: provider } = loaded.data;
  const invoice = paid?.invoice ?? loaded.data.invoice;
  const customer = invoice.customer;
  const billedTo = [[customer.first_name, customer.last_name].filter(Boolean).join(' '), customer.email].filter(Boolean).join(' · ');
  const payable = PAYABLE.includes(invoice.status) && (invoice.amount_due ?? invoice.total_amount) > 0;

  return (
    <>
      <PageHeading title={t.hosted.title(invoice.id)}>{t.hosted.title(invoice.id)}</PageHeading>
      <p className="from">{t.hosted.from(account.name)}</p>
      <dl className="facts">
        <dt>{t.common.status}</dt>
        <dd>
          <span className={`status status-${invoice.status.toLowerCase()}`}>{t.status.invoice[invoice.status]}</span>
        </dd>
        {billedTo && (
          <>
            <dt>{t.hosted.billedTo}</dt>
            <dd>{billedTo}</dd>
          </>
        )}
        {invoice.finalized_at && (
          <>
            <dt>{t.hosted.issued}</dt>
            <dd>{date(invoice.finalized_at)}</dd>
          </>
        )}
        {invoice.due_at && (
          <>
            <dt>{t.hosted.due}</dt>
            <dd>{date(invoice.due_at)}</dd>
          </>
        )}
      </dl>
      <InvoiceLines caption={t.hosted.lines} invoice={invoice} />
      {invoice.pdf_url && (
        <p>
          <a href={invoice.pdf_url}>{t.hosted.download}</a>
        </p>
      )}
      {invoice.status === 'PAID' && <p>{invoice.paid_at ? t.hosted.paid(date(invoice.paid_at)) : t.hosted.paidNoDate}</p>}
      {invoice.status === 'VOIDED' && <p>{t.hosted.voided}</p>}
      {paid && <PaymentOutcome payment={paid.payment} />}
      {payable && (
        <section aria-labelledby="pay-heading">
          <h2 id="pay-heading">{t.hosted.payHeading}</h2>
          <PayByCard token={token} invoice={invoice} provider={provider} onPaid={setPaid} />
        </section>
      )}
    </>
  );
}

function PayByCard({ token, invoice, provider, onPaid }: { token: string; invoice: Invoice; provider: HostedInvoice['payment_provider']; onPaid(result: InvoicePayResult): void }) {
  const { t, money } = useI18n();
  const fieldLabel = useCardFieldLabel();
  const key = useIdempotencyKey();
  const [stripeError, setStripeError] = useState<unknown>(undefined);
  const payCall = async (body: PayBody) => {
    try {
      const result = await portalCall<InvoicePayResult>('hosted-invoices/pay', body, { idempotencyKey: key.keyFor(body) });
      key.settled();
      return result;
    } catch (error) {
      key.settled(error);
      throw error;
    }
  };
  const pay = useAction(payCall);
  const label = t.invoices.payAmount(money(invoice.amount_due ?? invoice.total_amount, invoice.currency));

  if (provider.kind === 'STRIPE') {
    return (
      <>
        <StripeCardForm
          submitLabel={label}
          onError={setStripeError}
          setup={{
            publishableKey: provider.publishable_key,
            jsUrl: provider.js_url,
            createSetupIntent: () => portalCall('hosted-invoices/create-setup-intent', { token }),
            complete: async (setupIntentId) => onPaid(await payCall({ token, setup_intent_id: setupIntentId })),
          }}
        />
        <ErrorMessage error={stripeError} />
      </>
    );
  }
  return (
    <>
      <CardForm
        submitLabel={label}
        pending={pay.pending}
        onSubmit={(card) =>
          void pay.run({ token, card }).then((result) => {
            if (result) onPaid(result);
          })
        }
      />
      <ErrorMessage error={pay.error} fieldLabel={fieldLabel} />
    </>
  );
}

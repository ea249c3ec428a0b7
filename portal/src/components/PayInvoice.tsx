import { useId, useState } from 'react';
import { portalCall } from '../api/call';
import { useIdempotencyKey } from '../api/idempotency';
import type { InstrumentList, Invoice, InvoicePayResult } from '../api/types';
import { useAction } from '../api/useAction';
import { useI18n } from '../i18n/I18n';
import { Link } from '../router';
import { ConfirmPanel } from './ConfirmPanel';
import { ErrorMessage } from './ErrorMessage';
import { instrumentName } from './instrumentName';
import { PaymentOutcome } from './PaymentOutcome';

/**
 * Paying an open invoice with a saved card, the default one chosen to begin with. The same choice
 * sent again (no answer came) reuses its Idempotency-Key: the platform charges once.
 */
export function PayInvoice({
  invoice,
  instruments,
  onPaid,
  onDismiss,
}: {
  invoice: Invoice;
  instruments: InstrumentList | undefined;
  onPaid(result: InvoicePayResult): void;
  onDismiss(): void;
}) {
  const { t, money } = useI18n();
  const id = useId();
  const usable = instruments?.data.filter((instrument) => instrument.status === 'ACTIVE') ?? [];
  const [chosen, setChosen] = useState<string | undefined>(undefined);
  const selected = chosen ?? instruments?.default_payment_instrument_id ?? usable[0]?.id ?? '';
  const key = useIdempotencyKey();
  const pay = useAction(async (body: { id: string; payment_instrument_id: string }) => {
    try {
      const result = await portalCall<InvoicePayResult>('invoices/pay', body, { idempotencyKey: key.keyFor(body) });
      key.settled();
      return result;
    } catch (error) {
      key.settled(error);
      throw error;
    }
  });
  const paid = pay.result?.invoice.status === 'PAID';
  const due = money(invoice.amount_due ?? invoice.total_amount, invoice.currency);

  const submit = async () => {
    const result = await pay.run({ id: invoice.id, payment_instrument_id: selected });
    if (result) onPaid(result);
  };

  return (
    <ConfirmPanel heading={t.invoices.payHeading(invoice.id)} onDismiss={onDismiss}>
      {paid ? (
        <button type="button" className="secondary" onClick={onDismiss}>
          {t.common.close}
        </button>
      ) : !instruments ? (
        <p role="status">{t.common.loading}</p>
      ) : usable.length === 0 ? (
        <p>
          {t.invoices.noInstruments} <Link to="/payment-methods">{t.invoices.addInstrument}</Link>
        </p>
      ) : (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            void submit();
          }}
        >
          <label htmlFor={`${id}-instrument`}>{t.invoices.instrument}</label>
          <select id={`${id}-instrument`} value={selected} onChange={(event) => setChosen(event.target.value)}>
            {usable.map((instrument) => (
              <option key={instrument.id} value={instrument.id}>
                {instrumentName(t, instrument)}, {t.instruments.expiry(instrument.card.exp_month, instrument.card.exp_year)}
                {instrument.id === instruments.default_payment_instrument_id ? t.instruments.defaultSuffix : ''}
              </option>
            ))}
          </select>
          <div className="actions">
            <button type="submit" disabled={pay.pending}>
              {t.invoices.payAmount(due)}
            </button>
            <button type="button" className="secondary" onClick={onDismiss}>
              {t.common.close}
            </button>
          </div>
        </form>
      )}
      <ErrorMessage error={pay.error} />
      {pay.result && <PaymentOutcome payment={pay.result.payment} />}
    </ConfirmPanel>
  );
}

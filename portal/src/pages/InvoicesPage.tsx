import { useRef, useState } from 'react';
import { portalCall } from '../api/call';
import type { CreditNote, InstrumentList, Invoice } from '../api/types';
import { useLoad } from '../api/useLoad';
import { usePaged } from '../api/usePaged';
import { ErrorMessage } from '../components/ErrorMessage';
import { useInteractiveWhen } from '../components/interactive';
import { PageHeading } from '../components/PageHeading';
import { PayInvoice } from '../components/PayInvoice';
import { useI18n } from '../i18n/I18n';

const PAYABLE: readonly Invoice['status'][] = ['OPEN', 'DUNNING', 'UNPAID'];

function isPayable(invoice: Invoice): boolean {
  return PAYABLE.includes(invoice.status) && (invoice.amount_due ?? invoice.total_amount) > 0;
}

/** Invoices and credit notes, newest first, with their PDFs; an open, overdue or unpaid invoice can be paid here. */
export function InvoicesPage() {
  const { t, date, money } = useI18n();
  const invoices = usePaged<Invoice>('invoices/list');
  const creditNotes = usePaged<CreditNote>('credit-notes/list');
  const [paying, setPaying] = useState<string | undefined>(undefined);
  const payButtons = useRef(new Map<string, HTMLButtonElement>());
  const instruments = useLoad(paying ? 'instruments' : 'none', () =>
    paying ? portalCall<InstrumentList>('payment-instruments/list') : Promise.resolve(undefined),
  );
  useInteractiveWhen(invoices.loaded);

  const dismiss = () => {
    const id = paying;
    setPaying(undefined);
    requestAnimationFrame(() => (id ? payButtons.current.get(id) : undefined)?.focus());
  };
  const payingInvoice = invoices.items.find((invoice) => invoice.id === paying);

  return (
    <>
      <PageHeading title={t.invoices.title}>{t.invoices.title}</PageHeading>
      <section aria-labelledby="invoices-heading">
        <h2 id="invoices-heading">{t.invoices.invoices}</h2>
        {!invoices.loaded && <p role="status">{t.common.loading}</p>}
        <ErrorMessage error={invoices.error} />
        {invoices.loaded && !invoices.error && invoices.items.length === 0 && <p>{t.invoices.none}</p>}
        {invoices.items.length > 0 && (
          <table>
            <caption className="visually-hidden">{t.invoices.invoices}</caption>
            <thead>
              <tr>
                <th scope="col">{t.invoices.invoice}</th>
                <th scope="col">{t.common.date}</th>
                <th scope="col">{t.common.status}</th>
                <th scope="col" className="number">
                  {t.common.total}
                </th>
                <th scope="col" className="number">
                  {t.common.amountDue}
                </th>
                <th scope="col">{t.invoices.dueDate}</th>
                <th scope="col">{t.common.pdf}</th>
                <th scope="col">{t.invoices.action}</th>
              </tr>
            </thead>
            <tbody>
              {invoices.items.map((invoice) => (
                <tr key={invoice.id}>
                  <th scope="row">
                    <code>{invoice.id}</code>
                  </th>
                  <td>{date(invoice.finalized_at ?? invoice.created_at)}</td>
                  <td>
                    <span className={`status status-${invoice.status.toLowerCase()}`}>{t.status.invoice[invoice.status]}</span>
                  </td>
                  <td className="number">{money(invoice.total_amount, invoice.currency)}</td>
                  <td className="number">{money(invoice.amount_due ?? 0, invoice.currency)}</td>
                  <td>{invoice.due_at ? date(invoice.due_at) : '—'}</td>
                  <td>
                    {invoice.pdf_url ? (
                      <a href={invoice.pdf_url} aria-label={t.invoices.pdfOf(invoice.id)}>
                        {t.common.pdf}
                      </a>
                    ) : (
                      '—'
                    )}
                  </td>
                  <td>
                    {isPayable(invoice) && (
                      <button
                        type="button"
                        ref={(element) => {
                          if (element) payButtons.current.set(invoice.id, element);
                          else payButtons.current.delete(invoice.id);
                        }}
                        aria-label={t.invoices.payLabel(invoice.id)}
                        aria-expanded={paying === invoice.id}
                        onClick={() => setPaying(invoice.id)}
                      >
                        {t.invoices.pay}
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {payingInvoice && (
          <PayInvoice
            key={payingInvoice.id}
            invoice={payingInvoice}
            instruments={instruments.data}
            onPaid={(result) => invoices.replace(result.invoice)}
            onDismiss={dismiss}
          />
        )}
        <ErrorMessage error={instruments.error} />
        {invoices.hasMore && (
          <button type="button" className="secondary" onClick={invoices.more} disabled={invoices.pending}>
            {t.common.showMore}
          </button>
        )}
      </section>
      <section aria-labelledby="credit-notes-heading">
        <h2 id="credit-notes-heading">{t.invoices.creditNotes}</h2>
        {!creditNotes.loaded && <p role="status">{t.common.loading}</p>}
        <ErrorMessage error={creditNotes.error} />
        {creditNotes.loaded && !creditNotes.error && creditNotes.items.length === 0 && <p>{t.invoices.noCreditNotes}</p>}
        {creditNotes.items.length > 0 && (
          <table>
            <caption className="visually-hidden">{t.invoices.creditNotes}</caption>
            <thead>
              <tr>
                <th scope="col">{t.invoices.creditNote}</th>
                <th scope="col">{t.common.date}</th>
                <th scope="col">{t.invoices.invoice}</th>
                <th scope="col">{t.invoices.reason}</th>
                <th scope="col">{t.common.status}</th>
                <th scope="col" className="number">
                  {t.common.amount}
                </th>
                <th scope="col">{t.common.pdf}</th>
              </tr>
            </thead>
            <tbody>
              {creditNotes.items.map((note) => (
                <tr key={note.id}>
                  <th scope="row">{note.number}</th>
                  <td>{date(note.created_at)}</td>
                  <td>
                    <code>{note.invoice_id}</code>
                  </td>
                  <td>{t.status.creditNoteReason[note.reason]}</td>
                  <td>{t.status.creditNote[note.status]}</td>
                  <td className="number">{money(note.total_amount, note.currency)}</td>
                  <td>
                    {note.pdf_url ? (
                      <a href={note.pdf_url} aria-label={t.invoices.creditNotePdfOf(note.number)}>
                        {t.common.pdf}
                      </a>
                    ) : (
                      '—'
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {creditNotes.hasMore && (
          <button type="button" className="secondary" onClick={creditNotes.more} disabled={creditNotes.pending}>
            {t.common.showMore}
          </button>
        )}
      </section>
    </>
  );
}

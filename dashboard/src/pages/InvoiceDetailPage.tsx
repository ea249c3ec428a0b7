import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { CreditNote, CreditNotePreview, Invoice, InvoicePayment, Refund } from '../api/types';
import { useIdempotencyKey } from '../api/idempotency';
import { v2, type Page } from '../api/v2';
import { customerName } from '../components/customerName';
import { ErrorMessage } from '../components/ErrorMessage';
import { dateTime, money } from '../components/format';
import { listBody, pageOf } from '../components/listBody';
import { minorUnitsOf } from '../components/minorUnits';
import { PagedTable } from '../components/PagedTable';
import { usePaged } from '../components/usePaged';
import { PageHeading } from '../components/PageHeading';
import { Link } from 'react-router';
import { useCan } from '../session';
import { enumLabel } from '../components/enumLabel';
import { EnumText } from '../components/EnumText';

const REASONS = ['DUPLICATE', 'FRAUDULENT', 'ORDER_CHANGE', 'PRODUCT_UNSATISFACTORY', 'OTHER'] as const;
/** The invoice statuses credit-notes/create accepts (docs/credit-notes.md, "Request"). */
const CREDITABLE = ['OPEN', 'DUNNING', 'UNPAID', 'PAID'];
const SPLIT = [
  ['refund_amount', 'Refunded to the payment'],
  ['balance_credit_amount', "Credited to the customer's balance"],
  ['out_of_band_amount', 'Given back outside the platform'],
] as const;
type SplitField = (typeof SPLIT)[number][0];

/** What a part of a preview or note amounts to, in the order docs/credit-notes.md explains them. */
function noteAmounts(note: CreditNotePreview | CreditNote): string {
  const c = note.currency;
  return [
    `total ${money(note.total_amount, c)} (tax ${money(note.tax_amount, c)})`,
    `off the amount due ${money(note.pre_payment_amount, c)}`,
    ...SPLIT.map(([field, label]) => `${label.toLowerCase()} ${money(note[field], c)}`),
  ].join(', ');
}

function CreditNoteForm({ invoice, onIssued }: { invoice: Invoice; onIssued: () => void }) {
  const [whole, setWhole] = useState(false);
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState<(typeof REASONS)[number]>('ORDER_CHANGE');
  const [memo, setMemo] = useState('');
  const [split, setSplit] = useState<Record<SplitField, string>>({ refund_amount: '', balance_credit_amount: '', out_of_band_amount: '' });
  const [invalid, setInvalid] = useState('');
  const [preview, setPreview] = useState<{ body: Record<string, unknown>; note: CreditNotePreview }>();
  const edited = <T,>(set: (value: T) => void) => (value: T) => {
    set(value);
    setPreview(undefined);
  };
  const previewing = useMutation({
    mutationFn: async (body: Record<string, unknown>) => ({ body, note: await v2<CreditNotePreview>('/v2/credit-notes/preview', body) }),
    onSuccess: setPreview,
  });
  const idempotency = useIdempotencyKey();
  const issuing = useMutation({
    mutationFn: (body: Record<string, unknown>) => v2<CreditNote>('/v2/credit-notes/create', body, { idempotencyKey: idempotency.keyFor(body) }),
    onSuccess: () => {
      idempotency.done();
      setPreview(undefined);
      setAmount('');
      setMemo('');
      setSplit({ refund_amount: '', balance_credit_amount: '', out_of_band_amount: '' });
      onIssued();
    },
  });
  const minor = (text: string) => minorUnitsOf(text, invoice.currency);
  /** The request body, or the first field that does not hold an amount in the invoice's currency. */
  const body = (): Record<string, unknown> | string => {
    const request: Record<string, unknown> = { invoice_id: invoice.id, reason, ...(memo ? { memo } : {}) };
    if (whole) request.lines = invoice.line_items.map((line) => ({ line_item_id: line.id, quantity: line.quantity }));
    else {
      const lump = minor(amount);
      if (lump === undefined) return 'Amount';
      request.amount = lump;
    }
    for (const [field, label] of SPLIT) {
      if (!split[field]) continue;
      const part = minor(split[field]);
      if (part === undefined) return label;
      request[field] = part;
    }
    return request;
  };
  return (
    <form
      aria-labelledby="issue-credit-note"
      onSubmit={(event: FormEvent) => {
        event.preventDefault();
        const request = body();
        if (typeof request === 'string') {
          setInvalid(`${request}: give a positive amount in ${invoice.currency} with at most its number of decimals.`);
          return;
        }
        setInvalid('');
        previewing.mutate(request);
      }}
    >
      <h3 id="issue-credit-note">Issue credit note</h3>
      <p className="hint">
        The note first lowers what is still due ({money(invoice.amount_due, invoice.currency)}); the rest covers money already paid and must be split
        exactly between the three ways of giving it back. Amounts in {invoice.currency}, e.g. 15.00.
      </p>
      <label className="check">
        <input type="checkbox" checked={whole} onChange={(e) => edited(setWhole)(e.target.checked)} />
        Whole invoice (every line in full)
      </label>
      <label htmlFor="credit-amount">Amount credited, tax included</label>
      <input id="credit-amount" inputMode="decimal" required={!whole} disabled={whole} value={amount} onChange={(e) => edited(setAmount)(e.target.value)} />
      <label htmlFor="credit-reason">Credit note reason</label>
      <select id="credit-reason" value={reason} onChange={(e) => edited(setReason)(e.target.value as (typeof REASONS)[number])}>
        {REASONS.map((r) => (
          <option key={r} value={r}>
            {enumLabel(r)}
          </option>
        ))}
      </select>
      <label htmlFor="credit-memo">Memo (on the PDF)</label>
      <input id="credit-memo" maxLength={500} value={memo} onChange={(e) => edited(setMemo)(e.target.value)} />
      <fieldset>
        <legend>Where money already paid goes</legend>
        {SPLIT.map(([field, label]) => (
          <span key={field}>
            <label htmlFor={`credit-${field}`}>{label}</label>
            <input
              id={`credit-${field}`}
              inputMode="decimal"
              value={split[field]}
              onChange={(e) => edited(setSplit)({ ...split, [field]: e.target.value })}
            />
          </span>
        ))}
      </fieldset>
      <button type="submit" disabled={previewing.isPending}>
        Preview credit note
      </button>
      {invalid ? (
        <p role="alert" className="error">
          {invalid}
        </p>
      ) : null}
      <ErrorMessage error={previewing.error} />
      {preview ? (
        <div role="status">
          <p data-testid="credit-note-preview">
            Preview: {noteAmounts(preview.note)}; the invoice then owes {money(preview.note.invoice_amount_due, invoice.currency)}.
          </p>
          <button type="button" onClick={() => issuing.mutate(preview.body)} disabled={issuing.isPending}>
            Issue credit note
          </button>
        </div>
      ) : null}
      <ErrorMessage error={issuing.error} />
    </form>
  );
}

/** The provider's id of the payment, linked to the provider's own dashboard when it has one (Stripe). */
function ProviderReference(row: InvoicePayment) {
  if (!row.provider_reference) return '—';
  if (!row.provider_url) return <code>{row.provider_reference}</code>;
  return (
    <a href={row.provider_url} target="_blank" rel="noreferrer">
      {row.provider_reference}
      <span className="hint"> (opens {row.provider === 'stripe' ? 'Stripe' : row.provider})</span>
    </a>
  );
}

export function InvoiceDetailPage({ params }: { params: Record<string, string> }) {
  const id = params.id!;
  const can = useCan();
  const client = useQueryClient();
  const invoice = useQuery({ queryKey: ['invoices', id], queryFn: () => v2<Invoice>('/v2/invoices/get', { id }) });
  const [instrument, setInstrument] = useState('');
  const [refundAmount, setRefundAmount] = useState('');
  const [refundReason, setRefundReason] = useState('');
  const [refundInvalid, setRefundInvalid] = useState('');
  /** The refund field in minor units: undefined when empty (refund all that is left), null when it is no amount in the currency. */
  const refundMinor = (currency: string) => (refundAmount.trim() ? (minorUnitsOf(refundAmount, currency) ?? null) : undefined);
  const creditNotes = usePaged<CreditNote>(['invoices', id, 'credit-notes'], async (token) =>
    pageOf(await v2<Page<CreditNote>>('/v2/credit-notes/list', listBody(token, { invoice_id: { operator: 'EQ', value: id } }))),
  );
  const payments = usePaged<InvoicePayment>(['invoices', id, 'payments'], async (token) =>
    pageOf(await v2<Page<InvoicePayment>>('/v2/invoices/list-payments', { id, pagination: { page_size: 20, ...(token ? { next_page_token: token } : {}) } })),
  );
  const refunds = usePaged<Refund>(['invoices', id, 'refunds'], async (token) =>
    pageOf(await v2<Page<Refund>>('/v2/invoices/list-refunds', { id, pagination: { page_size: 20, ...(token ? { next_page_token: token } : {}) } })),
  );
  const refresh = () => client.invalidateQueries({ queryKey: ['invoices'] });
  const voidNote = useMutation({
    mutationFn: (noteId: string) => v2<CreditNote>('/v2/credit-notes/void', { id: noteId }),
    onSuccess: refresh,
  });
  const moneyIdempotency = useIdempotencyKey();
  const action = useMutation({
    mutationFn: async (which: 'finalize' | 'void' | 'pay' | 'refund') => {
      if (which === 'pay') {
        const body = { id, payment_instrument_id: instrument.trim() };
        return v2('/v2/invoices/pay', body, { idempotencyKey: moneyIdempotency.keyFor({ which, body }) });
      }
      if (which === 'refund') {
        const amount = refundMinor(invoice.data!.currency);
        const body = { id, ...(amount ? { amount } : {}), ...(refundReason ? { reason: refundReason } : {}) };
        return v2<{ refund: Refund }>('/v2/invoices/refund', body, { idempotencyKey: moneyIdempotency.keyFor({ which, body }) });
      }
      return v2(`/v2/invoices/${which}`, { id });
    },
    onSuccess: () => {
      moneyIdempotency.done();
      return refresh();
    },
  });
  const data = invoice.data;
  return (
    <>
      <p>
        <Link to="/invoices">← All invoices</Link>
      </p>
      <PageHeading title="Invoice">Invoice {id}</PageHeading>
      <ErrorMessage error={invoice.error} />
      {data ? (
        <>
          <dl className="facts">
            <dt>Status</dt>
            <dd data-testid="invoice-status">
              <EnumText code={data.status} />
            </dd>
            <dt>Customer</dt>
            <dd>
              <Link to={`/customers/${data.customer.id}`}>{customerName(data.customer)}</Link> {data.customer.email ?? ''}
            </dd>
            <dt>Total</dt>
            <dd>{money(data.total_amount, data.currency)}</dd>
            <dt>Amount due</dt>
            <dd>{money(data.amount_due, data.currency)}</dd>
            {data.amount_details ? (
              <>
                <dt>Subtotal / discount / tax</dt>
                <dd>
                  {money(data.amount_details.subtotal, data.currency)} / {money(data.amount_details.discount, data.currency)} /{' '}
                  {money(data.amount_details.tax, data.currency)}
                </dd>
              </>
            ) : null}
            <dt>Collection</dt>
            <dd>
              <EnumText code={data.collection_method} />
            </dd>
            <dt>Due</dt>
            <dd>{dateTime(data.due_at)}</dd>
            <dt>Finalized / paid / voided</dt>
            <dd>
              {dateTime(data.finalized_at)} / {dateTime(data.paid_at)} / {dateTime(data.voided_at)}
            </dd>
            {data.subscription_id ? (
              <>
                <dt>Subscription</dt>
                <dd>
                  <Link to={`/subscriptions/${data.subscription_id}`}>{data.subscription_id}</Link>
                </dd>
              </>
            ) : null}
            <dt>PDF</dt>
            <dd>{data.pdf_url ? <a href={data.pdf_url}>Download the invoice PDF</a> : 'available once finalized'}</dd>
          </dl>
          <table>
            <caption>Lines</caption>
            <thead>
              <tr>
                <th scope="col">Description</th>
                <th scope="col">Quantity</th>
                <th scope="col">Amount</th>
              </tr>
            </thead>
            <tbody>
              {data.line_items.map((line) => (
                <tr key={line.id}>
                  <td>{line.description ?? '—'}</td>
                  <td>{line.quantity}</td>
                  <td>{money(line.amount, line.currency)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <section aria-labelledby="payments">
            <h2 id="payments">Payments and refunds</h2>
            <p>
              {data.paid_at ? `Paid ${dateTime(data.paid_at)}${data.payment_instrument_id ? ` with ${data.payment_instrument_id}` : ''}.` : 'Not paid.'}
            </p>
            <PagedTable
              caption="Payments of this invoice"
              paged={payments}
              rowKey={(row) => row.id}
              empty="No payment was made."
              columns={[
                { header: 'Payment', cell: (row) => row.id },
                {
                  header: 'Status',
                  cell: (row) => (
                    <>
                      <EnumText code={row.status} />
                      {row.decline_code ? <> (<code>{row.decline_code}</code>)</> : null}
                    </>
                  ),
                },
                { header: 'Amount', cell: (row) => money(row.amount, row.currency) },
                { header: 'Instrument', cell: (row) => row.payment_instrument_id },
                { header: 'Provider', cell: (row) => row.provider ?? '—' },
                { header: 'Provider reference', cell: ProviderReference },
                { header: 'Created', cell: (row) => dateTime(row.created_at) },
              ]}
            />
            <PagedTable
              caption="Refunds of this invoice"
              paged={refunds}
              rowKey={(row) => row.id}
              empty="No refund was made."
              columns={[
                { header: 'Refund', cell: (row) => row.id },
                { header: 'Status', cell: (row) => <EnumText code={row.status} /> },
                { header: 'Amount', cell: (row) => money(row.amount, row.currency) },
                { header: 'Of payment', cell: (row) => row.payment_id },
                { header: 'Provider', cell: (row) => row.provider },
                { header: 'Reason', cell: (row) => row.reason ?? '—' },
                { header: 'Created', cell: (row) => dateTime(row.created_at) },
              ]}
            />
          </section>
          <section aria-labelledby="credit-notes">
            <h2 id="credit-notes">Credit notes</h2>
            <PagedTable
              caption="Credit notes of this invoice"
              paged={creditNotes}
              rowKey={(row) => row.id}
              empty="No credit notes."
              columns={[
                { header: 'Number', cell: (row) => (row.pdf_url ? <a href={row.pdf_url}>{`Credit note ${row.number}`}</a> : `Credit note ${row.number}`) },
                { header: 'Amounts', cell: noteAmounts },
                { header: 'Status', cell: (row) => <EnumText code={row.status} /> },
                {
                  header: 'Reason',
                  cell: (row) => (
                    <>
                      <EnumText code={row.reason} />
                      {row.memo ? `: ${row.memo}` : ''}
                    </>
                  ),
                },
                { header: 'Created', cell: (row) => dateTime(row.created_at) },
                {
                  header: 'Action',
                  cell: (row) =>
                    can('credit-notes:void') && row.status === 'ISSUED' && row.origin === 'API' ? (
                      <button type="button" onClick={() => voidNote.mutate(row.id)} disabled={voidNote.isPending}>
                        Void credit note {row.number}
                      </button>
                    ) : (
                      '—'
                    ),
                },
              ]}
            />
            <ErrorMessage error={voidNote.error} />
            {can('credit-notes:create') && CREDITABLE.includes(data.status) ? <CreditNoteForm invoice={data} onIssued={() => void refresh()} /> : null}
          </section>
          <section aria-labelledby="invoice-actions">
            <h2 id="invoice-actions">Actions</h2>
            <div className="actions">
              {can('invoices:finalize') && data.status === 'DRAFT' ? (
                <button type="button" onClick={() => action.mutate('finalize')} disabled={action.isPending}>
                  Finalize
                </button>
              ) : null}
              {can('invoices:void') && ['OPEN', 'DUNNING', 'UNPAID'].includes(data.status) ? (
                <button type="button" onClick={() => action.mutate('void')} disabled={action.isPending}>
                  Void
                </button>
              ) : null}
            </div>
            {can('invoices:pay') && ['OPEN', 'DUNNING', 'UNPAID'].includes(data.status) ? (
              <form
                className="inline"
                onSubmit={(event: FormEvent) => {
                  event.preventDefault();
                  action.mutate('pay');
                }}
              >
                <label htmlFor="pay-instrument">Payment instrument id</label>
                <input id="pay-instrument" required value={instrument} onChange={(e) => setInstrument(e.target.value)} />
                <button type="submit" disabled={action.isPending}>
                  Pay
                </button>
              </form>
            ) : null}
            {can('invoices:refund') && data.status === 'PAID' ? (
              <form
                className="inline"
                onSubmit={(event: FormEvent) => {
                  event.preventDefault();
                  if (refundMinor(data.currency) === null) {
                    setRefundInvalid(`Give a positive amount in ${data.currency} with at most its number of decimals, or nothing to refund all that is left.`);
                    return;
                  }
                  setRefundInvalid('');
                  action.mutate('refund');
                }}
              >
                <label htmlFor="refund-amount">Refund amount in {data.currency}, e.g. 15.00 (empty: all that is left)</label>
                <input id="refund-amount" inputMode="decimal" value={refundAmount} onChange={(e) => setRefundAmount(e.target.value)} />
                <label htmlFor="refund-reason">Reason</label>
                <input id="refund-reason" value={refundReason} onChange={(e) => setRefundReason(e.target.value)} />
                <button type="submit" disabled={action.isPending}>
                  Refund
                </button>
                {refundInvalid ? (
                  <p role="alert" className="error">
                    {refundInvalid}
                  </p>
                ) : null}
              </form>
            ) : null}
            <ErrorMessage error={action.error} />
          </section>
        </>
      ) : null}
    </>
  );
}

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { BalanceTransaction, Customer, Invoice, PaymentInstrument, Subscription } from '../api/types';
import { useIdempotencyKey } from '../api/idempotency';
import { v2, type Page } from '../api/v2';
import { customerName } from '../components/customerName';
import { CustomerUsage } from '../components/CustomerUsage';
import { ErrorMessage } from '../components/ErrorMessage';
import { dateTime, money } from '../components/format';
import { listBody, pageOf } from '../components/listBody';
import { minorUnitsOf } from '../components/minorUnits';
import { PageHeading } from '../components/PageHeading';
import { PagedTable } from '../components/PagedTable';
import { UpcomingInvoices } from '../components/UpcomingInvoices';
import { usePaged } from '../components/usePaged';
import { Link } from 'react-router';
import { useCan } from '../session';
import { EnumText } from '../components/EnumText';

/** Subscriptions that are not over: they bill usage and have a next invoice. */
const LIVE_STATUSES: Subscription['status'][] = ['CREATED', 'PENDING', 'TRIALING', 'ACTIVE', 'REDEMPTION', 'UNPAID'];

/** The sign in words, as docs/customer-balance.md puts it: negative is credit, positive is debit. */
function balanceInWords(amount: number, currency: string): string {
  if (amount < 0) return `${money(-amount, currency)} credit the merchant owes the customer`;
  if (amount > 0) return `${money(amount, currency)} the customer owes the merchant`;
  return `0 ${currency}: nothing owed either way`;
}

function BalanceForm({ customerId, onDone }: { customerId: string; onDone: () => void }) {
  const [direction, setDirection] = useState<'CREDIT' | 'DEBIT'>('CREDIT');
  const [amount, setAmount] = useState('');
  const [currency, setCurrency] = useState('EUR');
  const [description, setDescription] = useState('');
  const [invalid, setInvalid] = useState('');
  const idempotency = useIdempotencyKey();
  const adjust = useMutation({
    mutationFn: (minor: number) => {
      const body = { customer_id: customerId, currency: currency.trim().toUpperCase(), amount: direction === 'CREDIT' ? -minor : minor, description };
      return v2<BalanceTransaction>('/v2/customer-balance-transactions/create', body, { idempotencyKey: idempotency.keyFor(body) });
    },
    onSuccess: () => {
      idempotency.done();
      setAmount('');
      setDescription('');
      onDone();
    },
  });
  return (
    <form
      className="inline"
      aria-labelledby="adjust-balance"
      onSubmit={(event: FormEvent) => {
        event.preventDefault();
        const minor = minorUnitsOf(amount, currency);
        if (minor === undefined) {
          setInvalid(`Give a positive amount in ${currency.trim().toUpperCase() || 'the currency'} with at most its number of decimals, and a known currency code.`);
          return;
        }
        setInvalid('');
        adjust.mutate(minor);
      }}
    >
      <h3 id="adjust-balance">Adjust balance</h3>
      <label htmlFor="adjust-direction">Direction</label>
      <select id="adjust-direction" value={direction} onChange={(e) => setDirection(e.target.value as 'CREDIT' | 'DEBIT')}>
        <option value="CREDIT">Credit: the merchant owes the customer more</option>
        <option value="DEBIT">Debit: the customer owes the merchant more</option>
      </select>
      <label htmlFor="adjust-amount">Amount (e.g. 15.00)</label>
      <input id="adjust-amount" inputMode="decimal" required value={amount} onChange={(e) => setAmount(e.target.value)} />
      <label htmlFor="adjust-currency">Currency</label>
      <input id="adjust-currency" required maxLength={3} value={currency} onChange={(e) => setCurrency(e.target.value)} />
      <label htmlFor="adjust-description">Description</label>
      <input id="adjust-description" required maxLength={500} value={description} onChange={(e) => setDescription(e.target.value)} />
      <button type="submit" disabled={adjust.isPending}>
        Adjust balance
      </button>
      {invalid ? (
        <p role="alert" className="error">
          {invalid}
        </p>
      ) : null}
      <ErrorMessage error={adjust.error} />
    </form>
  );
}

export function CustomerDetailPage({ params }: { params: Record<string, string> }) {
  const id = params.id!;
  const can = useCan();
  const client = useQueryClient();
  const customer = useQuery({ queryKey: ['customers', id], queryFn: () => v2<Customer>('/v2/customers/get', { id }) });
  const instruments = usePaged<PaymentInstrument>(['customers', id, 'instruments'], async (token) =>
    pageOf(await v2<Page<PaymentInstrument>>('/v2/payment-instruments/list', listBody(token, {}, { customer_id: id }))),
  );
  const invoices = usePaged<Invoice>(['customers', id, 'invoices'], async (token) =>
    pageOf(await v2<Page<Invoice>>('/v2/invoices/list', listBody(token, { customer_id: { operator: 'EQ', value: id } }))),
  );
  const subscriptions = usePaged<Subscription>(['customers', id, 'subscriptions'], async (token) =>
    pageOf(await v2<Page<Subscription>>('/v2/subscriptions/list', listBody(token, { customer_id: { operator: 'EQ', value: id } }))),
  );
  const live = useQuery({
    queryKey: ['customers', id, 'subscriptions', 'live'],
    queryFn: async () =>
      (await v2<Page<Subscription>>('/v2/subscriptions/list', listBody(undefined, { customer_id: { operator: 'EQ', value: id }, status: { operator: 'IN', value: LIVE_STATUSES } }))).items,
  });
  const ledger = usePaged<BalanceTransaction>(['customers', id, 'balance-transactions'], async (token) =>
    pageOf(await v2<Page<BalanceTransaction>>('/v2/customer-balance-transactions/list', listBody(token, {}, { customer_id: id }))),
  );
  const data = customer.data;
  const balances = Object.entries(data?.balances ?? {});
  return (
    <>
      <p>
        <Link to="/customers">← All customers</Link>
      </p>
      <PageHeading title="Customer">Customer {data ? customerName(data) : ''}</PageHeading>
      <ErrorMessage error={customer.error} />
      {data ? (
        <dl className="facts">
          <dt>Name</dt>
          <dd data-testid="customer-name">{customerName(data)}</dd>
          <dt>E-mail</dt>
          <dd>{data.email}</dd>
          <dt>Status</dt>
          <dd>
            <EnumText code={data.status} />
          </dd>
          <dt>Id</dt>
          <dd>{data.id}</dd>
          <dt>Your customer id</dt>
          <dd>{data.merchant_customer_id ?? '—'}</dd>
          <dt>Created</dt>
          <dd>{dateTime(data.created_at)}</dd>
        </dl>
      ) : null}
      <section aria-labelledby="balance">
        <h2 id="balance">Balance</h2>
        {data ? (
          balances.length > 0 ? (
            <ul data-testid="customer-balances">
              {balances.map(([currency, amount]) => (
                <li key={currency}>
                  {currency}: {balanceInWords(amount, currency)}
                </li>
              ))}
            </ul>
          ) : (
            <p>No balance: nothing credited or owed outside invoices.</p>
          )
        ) : null}
        <p className="hint">The next invoices in a currency draw on its balance when they are finalized.</p>
        {can('customer-balance-transactions:create') ? (
          <BalanceForm customerId={id} onDone={() => void client.invalidateQueries({ queryKey: ['customers', id] })} />
        ) : null}
        <PagedTable
          caption="Balance transactions"
          paged={ledger}
          rowKey={(row) => row.id}
          empty="No balance transactions."
          columns={[
            { header: 'Type', cell: (row) => <EnumText code={row.type} /> },
            { header: 'Amount', cell: (row) => money(row.amount, row.currency) },
            { header: 'Balance after', cell: (row) => money(row.ending_balance, row.currency) },
            {
              header: 'From',
              cell: (row) =>
                row.invoice_id || row.credit_note_id ? (
                  <>
                    {row.credit_note_id ? `Credit note ${row.credit_note_id} of ` : null}
                    {row.invoice_id ? <Link to={`/invoices/${row.invoice_id}`}>{row.invoice_id}</Link> : null}
                  </>
                ) : (
                  '—'
                ),
            },
            { header: 'Description', cell: (row) => row.description ?? '—' },
            { header: 'Date', cell: (row) => dateTime(row.created_at) },
          ]}
        />
      </section>
      <h2>Payment instruments</h2>
      <PagedTable
        caption="Payment instruments"
        paged={instruments}
        rowKey={(row) => row.id}
        empty="No payment instruments."
        columns={[
          { header: 'Card', cell: (row) => `${row.card.brand} ending ${row.card.last4}, expires ${row.card.exp_month}/${row.card.exp_year}` },
          { header: 'Status', cell: (row) => <EnumText code={row.status} /> },
          { header: 'Id', cell: (row) => row.id },
        ]}
      />
      <h2>Invoices</h2>
      <PagedTable
        caption="Invoices of this customer"
        paged={invoices}
        rowKey={(row) => row.id}
        empty="No invoices."
        columns={[
          { header: 'Invoice', cell: (row) => <Link to={`/invoices/${row.id}`}>{row.id}</Link> },
          { header: 'Status', cell: (row) => <EnumText code={row.status} /> },
          { header: 'Total', cell: (row) => money(row.total_amount, row.currency) },
          { header: 'Created', cell: (row) => dateTime(row.created_at) },
        ]}
      />
      <h2>Subscriptions</h2>
      <PagedTable
        caption="Subscriptions of this customer"
        paged={subscriptions}
        rowKey={(row) => row.id}
        empty="No subscriptions."
        columns={[
          { header: 'Subscription', cell: (row) => <Link to={`/subscriptions/${row.id}`}>{row.id}</Link> },
          { header: 'Status', cell: (row) => <EnumText code={row.status} /> },
          { header: 'Next billing', cell: (row) => dateTime(row.next_billing_at) },
        ]}
      />
      <section aria-labelledby="usage">
        <h2 id="usage">Usage</h2>
        <ErrorMessage error={live.error} />
        {live.data ? <CustomerUsage customerId={id} subscriptions={live.data} /> : null}
      </section>
      {can('invoices:preview') ? (
        <section aria-labelledby="upcoming">
          <h2 id="upcoming">Upcoming invoices</h2>
          <p className="hint">What each subscription that is not over will bill next, usage to date included, as invoices/preview computes it now.</p>
          {live.data ? <UpcomingInvoices subscriptions={live.data} /> : null}
        </section>
      ) : null}
    </>
  );
}

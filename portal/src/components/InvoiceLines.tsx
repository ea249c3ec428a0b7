import type { Invoice, InvoicePreview } from '../api/types';
import { useI18n } from '../i18n/I18n';

type Totals = Pick<Invoice | InvoicePreview, 'currency' | 'total_amount' | 'amount_due' | 'amount_details' | 'line_items'>;

/**
 * An invoice's lines and totals, or a preview's (`toDate`: its usage lines measure the period so
 * far): each line's amount before tax and discount.
 */
export function InvoiceLines({ caption, invoice, toDate = false }: { caption: string; invoice: Totals; toDate?: boolean }) {
  const { t, money, quantity } = useI18n();
  const details = invoice.amount_details;
  const sum = (label: string, amount: number) => (
    <tr key={label}>
      <th scope="row" colSpan={3}>
        {label}
      </th>
      <td className="number">{money(amount, invoice.currency)}</td>
    </tr>
  );
  return (
    <table>
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">{t.common.description}</th>
          <th scope="col" className="number">
            {t.common.quantity}
          </th>
          <th scope="col" className="number">
            {t.common.unitPrice}
          </th>
          <th scope="col" className="number">
            {t.common.amount}
          </th>
        </tr>
      </thead>
      <tbody>
        {invoice.line_items.map((line, index) => (
          <tr key={index}>
            <td>
              {line.description ?? '—'}
              {toDate && line.usage && <span className="hint"> ({t.subscriptions.usageSoFar(quantity(line.usage.quantity))})</span>}
            </td>
            <td className="number">{line.usage ? quantity(line.usage.quantity) : quantity(line.quantity)}</td>
            <td className="number">{line.usage ? '—' : money(line.amount, line.currency)}</td>
            <td className="number">{money(line.amount_details.subtotal, line.currency)}</td>
          </tr>
        ))}
      </tbody>
      <tfoot>
        {details && details.discount !== 0 && sum(t.common.discount, -details.discount)}
        {details && details.tax !== 0 && sum(t.common.tax, details.tax)}
        {sum(t.common.total, invoice.total_amount)}
        {details && details.balance_applied !== 0 && sum(t.common.balanceApplied, -details.balance_applied)}
        {invoice.amount_due !== undefined && invoice.amount_due !== invoice.total_amount && sum(t.common.amountDue, invoice.amount_due)}
      </tfoot>
    </table>
  );
}

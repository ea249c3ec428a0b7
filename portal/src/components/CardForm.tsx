import { useId, useState, type FormEvent } from 'react';
import type { CardInput } from '../api/types';
import { useI18n } from '../i18n/I18n';
import type { FieldLabel } from './describeError';

const MONTHS = Array.from({ length: 12 }, (_, index) => index + 1);

/** The card fields of a VALIDATION error (`card.number`), named as the form labels them. */
export function useCardFieldLabel(): FieldLabel {
  const { t } = useI18n();
  const labels: Record<string, string> = {
    'card.number': t.card.number,
    'card.exp_month': t.card.expMonth,
    'card.exp_year': t.card.expYear,
    'card.cardholder_name': t.card.name,
  };
  return (path) => labels[path];
}

/**
 * The sandbox provider's card form (docs/sandbox.md): the number goes to the platform, which
 * tokenizes it. A Stripe-connected account gets StripeCardForm instead.
 */
export function CardForm({ submitLabel, pending, onSubmit }: { submitLabel: string; pending: boolean; onSubmit(card: CardInput): void }) {
  const { t } = useI18n();
  const id = useId();
  const thisYear = new Date().getFullYear();
  const years = Array.from({ length: 16 }, (_, index) => thisYear + index);
  const [number, setNumber] = useState('');
  const [month, setMonth] = useState(1);
  const [year, setYear] = useState(thisYear + 1);
  const [name, setName] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = name.trim();
    onSubmit({ number: number.replace(/[\s-]/g, ''), exp_month: month, exp_year: year, ...(trimmed ? { cardholder_name: trimmed } : {}) });
  };
  return (
    <form className="card-form" onSubmit={submit}>
      <label htmlFor={`${id}-number`}>{t.card.number}</label>
      <input
        id={`${id}-number`}
        value={number}
        onChange={(event) => setNumber(event.target.value)}
        inputMode="numeric"
        autoComplete="cc-number"
        required
        maxLength={23}
      />
      <div className="inline-fields">
        <span>
          <label htmlFor={`${id}-month`}>{t.card.expMonth}</label>
          <select id={`${id}-month`} value={month} onChange={(event) => setMonth(Number(event.target.value))} autoComplete="cc-exp-month">
            {MONTHS.map((value) => (
              <option key={value} value={value}>
                {String(value).padStart(2, '0')}
              </option>
            ))}
          </select>
        </span>
        <span>
          <label htmlFor={`${id}-year`}>{t.card.expYear}</label>
          <select id={`${id}-year`} value={year} onChange={(event) => setYear(Number(event.target.value))} autoComplete="cc-exp-year">
            {years.map((value) => (
              <option key={value} value={value}>
                {value}
              </option>
            ))}
          </select>
        </span>
      </div>
      <label htmlFor={`${id}-name`}>{t.card.name}</label>
      <input id={`${id}-name`} value={name} onChange={(event) => setName(event.target.value)} autoComplete="cc-name" maxLength={100} />
      <div>
        <button type="submit" disabled={pending}>
          {submitLabel}
        </button>
      </div>
    </form>
  );
}

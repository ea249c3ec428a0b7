import { CURRENCY_CODES } from '../../../../domain/currencies';
import { PERIOD_CHOICES, type PeriodChoice } from './periods';

export interface OverviewFilterValues {
  choice: PeriodChoice;
  custom: { from: string; to: string };
  /** Empty: the account's main currency, which the API picks. */
  currency: string;
}

/** The period and currency the figures are for; every change applies at once. */
export function OverviewFilters({ values, onChange }: { values: OverviewFilterValues; onChange: (values: OverviewFilterValues) => void }) {
  const set = (patch: Partial<OverviewFilterValues>) => onChange({ ...values, ...patch });
  return (
    <form className="inline" aria-label="Period and currency" onSubmit={(event) => event.preventDefault()}>
      <label htmlFor="overview-period">Period</label>
      <select id="overview-period" value={values.choice} onChange={(event) => set({ choice: event.target.value as PeriodChoice })}>
        {PERIOD_CHOICES.map((choice) => (
          <option key={choice.value} value={choice.value}>
            {choice.label}
          </option>
        ))}
      </select>
      {values.choice === 'CUSTOM' ? (
        <>
          <label htmlFor="overview-from">From (UTC day)</label>
          <input id="overview-from" type="date" value={values.custom.from} onChange={(event) => set({ custom: { ...values.custom, from: event.target.value } })} />
          <label htmlFor="overview-to">To (included)</label>
          <input id="overview-to" type="date" value={values.custom.to} onChange={(event) => set({ custom: { ...values.custom, to: event.target.value } })} />
        </>
      ) : null}
      <label htmlFor="overview-currency">Currency</label>
      <select id="overview-currency" value={values.currency} onChange={(event) => set({ currency: event.target.value })}>
        <option value="">Main currency</option>
        {CURRENCY_CODES.map((code) => (
          <option key={code} value={code}>
            {code}
          </option>
        ))}
      </select>
    </form>
  );
}

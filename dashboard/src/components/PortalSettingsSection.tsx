import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { MAX_SWITCHABLE_PRICES, type PortalCancellationMode, type PortalSettings } from '../../../domain/portal/settings';
import { sessionCall } from '../api/session';
import type { ProductPrice } from '../api/types';
import { v2, type Page } from '../api/v2';
import { ErrorMessage } from './ErrorMessage';
import { listBody, pageOf } from './listBody';
import { PagedTable } from './PagedTable';
import { priceLabel, usePrices, useProductNames } from './usePriceLabels';
import { usePaged } from './usePaged';

const PORTAL_SETTINGS = ['portal-settings'] as const;

const CANCELLATION_CHOICES: { mode: PortalCancellationMode; label: string }[] = [
  { mode: 'NEVER', label: 'Never' },
  { mode: 'AT_PERIOD_END', label: 'At the end of the billing period' },
  { mode: 'IMMEDIATELY', label: 'Immediately' },
];

const without = (ids: readonly string[], id: string) => ids.filter((other) => other !== id);

/** The account's RECURRING prices a page at a time, each with a checkbox that adds it to the chosen ones. */
function RecurringPricePicker({ chosen, onChange }: { chosen: readonly string[]; onChange: (ids: string[]) => void }) {
  const paged = usePaged<ProductPrice>(['portal-recurring-prices'], async (token) =>
    pageOf(await v2<Page<ProductPrice>>('/v2/product-prices/list', listBody(token, { billing_type: { operator: 'EQ', value: 'RECURRING' } }))),
  );
  const names = useProductNames(paged.items.map((price) => price.product_id));
  const full = chosen.length >= MAX_SWITCHABLE_PRICES;
  return (
    <PagedTable
      caption="Recurring prices"
      paged={paged}
      rowKey={(price) => price.id}
      empty="The account has no recurring prices."
      columns={[
        {
          header: 'Price',
          cell: (price) => (
            <label className="check">
              <input
                type="checkbox"
                checked={chosen.includes(price.id)}
                disabled={full && !chosen.includes(price.id)}
                onChange={(e) => onChange(e.target.checked ? [...chosen, price.id] : without(chosen, price.id))}
              />
              {priceLabel(price, names.get(price.product_id))}
            </label>
          ),
        },
        { header: 'Price id', cell: (price) => <code>{price.id}</code> },
      ]}
    />
  );
}

/** The chosen prices in words; an admin removes one here or unticks it in the picker. */
function SwitchablePrices({ chosen, editable, onChange }: { chosen: string[]; editable: boolean; onChange: (ids: string[]) => void }) {
  const { prices, error } = usePrices(chosen);
  const names = useProductNames(prices.flatMap((price) => (price ? [price.product_id] : [])));
  const labelOf = (index: number) => {
    const price = prices[index];
    return price ? priceLabel(price, names.get(price.product_id)) : chosen[index]!;
  };
  return (
    <fieldset>
      <legend>Prices customers may switch between</legend>
      <p className="hint">
        A customer may move a subscription line from one of these prices to another of them in the same currency. At most {MAX_SWITCHABLE_PRICES}.
      </p>
      <ErrorMessage error={error} />
      {chosen.length === 0 ? (
        <p>None: customers cannot switch prices.</p>
      ) : (
        <ul aria-label="Prices customers may switch between">
          {chosen.map((id, index) => (
            <li key={id}>
              {labelOf(index)} <code>{id}</code>{' '}
              {editable ? (
                <button type="button" onClick={() => onChange(without(chosen, id))}>
                  Remove<span className="visually-hidden"> {labelOf(index)}</span>
                </button>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      {editable ? <RecurringPricePicker chosen={chosen} onChange={onChange} /> : null}
    </fieldset>
  );
}

function PortalSettingsForm({ saved, editable }: { saved: PortalSettings; editable: boolean }) {
  const client = useQueryClient();
  const [draft, setDraft] = useState(saved);
  const save = useMutation({
    mutationFn: () => sessionCall<PortalSettings>('portal-settings/update', draft),
    onSuccess: (settings) => {
      client.setQueryData(PORTAL_SETTINGS, settings);
      setDraft(settings);
    },
  });
  const edit = (change: Partial<PortalSettings>) => {
    save.reset();
    setDraft({ ...draft, ...change });
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  return (
    <form onSubmit={submit} aria-label="Customer portal settings">
      <fieldset disabled={!editable}>
        <legend>Customers may cancel a subscription</legend>
        {CANCELLATION_CHOICES.map((choice) => (
          <label key={choice.mode} className="check">
            <input type="radio" name="portal-cancellation" checked={draft.cancellation === choice.mode} onChange={() => edit({ cancellation: choice.mode })} />
            {choice.label}
          </label>
        ))}
      </fieldset>
      <fieldset disabled={!editable}>
        <legend>Customers may also</legend>
        <label className="check">
          <input type="checkbox" checked={draft.quantity_changes} onChange={(e) => edit({ quantity_changes: e.target.checked })} />
          Change the quantity of a subscription line
        </label>
        <label className="check">
          <input type="checkbox" checked={draft.billing_details_updates} onChange={(e) => edit({ billing_details_updates: e.target.checked })} />
          Update their billing details (address, tax registrations, e-mail)
        </label>
      </fieldset>
      <SwitchablePrices chosen={draft.switchable_price_ids} editable={editable} onChange={(ids) => edit({ switchable_price_ids: ids })} />
      {editable ? (
        <button type="submit" disabled={save.isPending}>
          Save portal settings
        </button>
      ) : (
        <p className="hint">Only a merchant admin can change these.</p>
      )}
      {save.isSuccess ? <p role="status">Customer portal settings saved.</p> : null}
      <ErrorMessage error={save.error} />
    </form>
  );
}

/**
 * What the account's customers may do in the customer portal (docs/portal.md, "Settings"):
 * every role reads it, a MERCHANT_ADMIN changes it.
 */
export function PortalSettingsSection({ editable }: { editable: boolean }) {
  const saved = useQuery({ queryKey: PORTAL_SETTINGS, queryFn: () => sessionCall<PortalSettings>('portal-settings/get') });
  return (
    <section aria-labelledby="portal-heading">
      <h2 id="portal-heading">Customer portal</h2>
      <p className="hint">What your customers may do themselves in the customer portal.</p>
      <ErrorMessage error={saved.error} />
      {saved.data ? <PortalSettingsForm saved={saved.data} editable={editable} /> : saved.isLoading ? <p role="status">Loading…</p> : null}
    </section>
  );
}

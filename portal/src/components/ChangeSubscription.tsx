import { useId, useRef, useState } from 'react';
import { forbiddenLineChange } from '../../../domain/portal/rules';
import { portalCall } from '../api/call';
import { useIdempotencyKey } from '../api/idempotency';
import type { LineChange, PortalSessionInfo, Subscription, SubscriptionLine, SubscriptionPreview } from '../api/types';
import { useAction } from '../api/useAction';
import { useI18n } from '../i18n/I18n';
import { useSession } from '../session';
import { ConfirmPanel } from './ConfirmPanel';
import { ErrorMessage } from './ErrorMessage';
import { InvoiceLines } from './InvoiceLines';

type Price = PortalSessionInfo['switchable_prices'][number];

/**
 * The prices a line may switch to: those the account's settings allow (domain/portal/rules.ts,
 * as the platform checks them), narrowed to the ones subscriptions/update would take: the same
 * currency, billing type and interval (a subscription's lines share one billing period), so no
 * option is offered only to be refused. The line's own price is among them.
 */
function pricesFor(info: PortalSessionInfo, line: SubscriptionLine): Price[] {
  const period = line.billing_period_config;
  return info.switchable_prices.filter(
    (price) =>
      (price.id === line.product_price_id || forbiddenLineChange(info.settings, line.product_price_id, { productPriceId: price.id }) === null) &&
      price.currency === line.currency &&
      price.billing_type === line.billing_type &&
      price.billing_period_config?.unit === period?.unit &&
      price.billing_period_config?.value === period?.value,
  );
}

/**
 * Changing a line's quantity or price as the merchant's settings allow. The proration is shown
 * first (`subscriptions/preview` with the change): the confirm button appears only under the
 * preview of exactly the values in the form, and any edit takes it away again.
 */
export function ChangeSubscription({ subscription, onChanged }: { subscription: Subscription; onChanged(subscription: Subscription, notice: string): void }) {
  const { t, money, date } = useI18n();
  const { info } = useSession();
  const id = useId();
  const opener = useRef<HTMLButtonElement>(null);
  const changeable = subscription.line_items.filter(
    (line) => line.billing_type === 'RECURRING' && (info.settings.quantity_changes || pricesFor(info, line).length > 1),
  );
  const [open, setOpen] = useState(false);
  const [lineId, setLineId] = useState(changeable[0]?.id ?? '');
  const line = changeable.find((candidate) => candidate.id === lineId) ?? changeable[0];
  const [quantity, setQuantity] = useState(String(line?.quantity ?? 1));
  const [priceId, setPriceId] = useState(line?.product_price_id ?? '');
  const key = useIdempotencyKey();
  const preview = useAction((change: LineChange) => portalCall<SubscriptionPreview>('subscriptions/preview', { id: subscription.id, change }));
  const [previewed, setPreviewed] = useState<string | undefined>(undefined);
  const confirm = useAction(async (change: LineChange) => {
    const body = { id: subscription.id, ...change };
    try {
      const answer = await portalCall<Subscription>('subscriptions/change', body, { idempotencyKey: key.keyFor(body) });
      key.settled();
      return answer;
    } catch (error) {
      key.settled(error);
      throw error;
    }
  });

  if (!line) return null;
  const prices = pricesFor(info, line);
  const change: LineChange = {
    line_item_id: line.id,
    ...(info.settings.quantity_changes && quantity.trim() !== String(line.quantity) ? { quantity: Number(quantity.trim()) } : {}),
    ...(prices.length > 1 && priceId !== line.product_price_id ? { product_price_id: priceId } : {}),
  };
  const unchanged = change.quantity === undefined && change.product_price_id === undefined;
  const current = JSON.stringify(change);

  const edited = () => {
    setPreviewed(undefined);
    preview.reset();
    confirm.reset();
  };
  const chooseLine = (next: string) => {
    const chosen = changeable.find((candidate) => candidate.id === next)!;
    setLineId(next);
    setQuantity(String(chosen.quantity));
    setPriceId(chosen.product_price_id);
    edited();
  };
  const dismiss = () => {
    setOpen(false);
    edited();
    requestAnimationFrame(() => opener.current?.focus());
  };
  const showPreview = async () => {
    if (unchanged) return;
    if (await preview.run(change)) setPreviewed(current);
  };
  const apply = async () => {
    const answer = await confirm.run(change);
    if (answer) onChanged(answer, t.subscriptions.change.done);
  };
  const fieldLabel = (path: string) =>
    path.endsWith('quantity') ? t.subscriptions.change.quantity : path.endsWith('product_price_id') ? t.subscriptions.change.plan : undefined;

  if (!open) {
    return (
      <button type="button" className="secondary" ref={opener} onClick={() => setOpen(true)}>
        {t.subscriptions.change.open}
      </button>
    );
  }
  const answer = previewed === current ? preview.result : undefined;
  return (
    <ConfirmPanel heading={t.subscriptions.change.heading(line.product_info.name)} onDismiss={dismiss}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void showPreview();
        }}
      >
        {changeable.length > 1 && (
          <>
            <label htmlFor={`${id}-line`}>{t.subscriptions.change.item}</label>
            <select id={`${id}-line`} value={line.id} onChange={(event) => chooseLine(event.target.value)}>
              {changeable.map((candidate) => (
                <option key={candidate.id} value={candidate.id}>
                  {candidate.product_info.name}
                </option>
              ))}
            </select>
          </>
        )}
        {info.settings.quantity_changes && (
          <>
            <label htmlFor={`${id}-quantity`}>{t.subscriptions.change.quantity}</label>
            <input
              id={`${id}-quantity`}
              type="number"
              min={1}
              step={1}
              inputMode="numeric"
              value={quantity}
              onChange={(event) => {
                setQuantity(event.target.value);
                edited();
              }}
            />
          </>
        )}
        {prices.length > 1 && (
          <>
            <label htmlFor={`${id}-price`}>{t.subscriptions.change.plan}</label>
            <select
              id={`${id}-price`}
              value={priceId}
              onChange={(event) => {
                setPriceId(event.target.value);
                edited();
              }}
            >
              {prices.map((price) => (
                <option key={price.id} value={price.id}>
                  {t.subscriptions.change.planOption(
                    price.product_name,
                    money(price.amount, price.currency),
                    price.billing_period_config ? t.period.every(price.billing_period_config) : '',
                  )}
                </option>
              ))}
            </select>
          </>
        )}
        <div className="actions">
          <button type="submit" disabled={preview.pending || unchanged} aria-describedby={unchanged ? `${id}-unchanged` : undefined}>
            {t.subscriptions.change.preview}
          </button>
          <button type="button" className="secondary" onClick={dismiss}>
            {t.subscriptions.change.back}
          </button>
        </div>
        {unchanged && (
          <p id={`${id}-unchanged`} className="hint">
            {t.subscriptions.change.nothingChanged}
          </p>
        )}
      </form>
      <ErrorMessage error={preview.error} fieldLabel={fieldLabel} />
      {answer && (
        <div className="preview" aria-live="polite">
          <h4>{t.subscriptions.change.previewHeading}</h4>
          {answer.update_invoice ? (
            <InvoiceLines caption={`${t.subscriptions.change.chargedNow} (${date(answer.update_invoice.issued_at)})`} invoice={answer.update_invoice} />
          ) : (
            <p>{t.subscriptions.change.nothingNow}</p>
          )}
          {answer.next_invoice && (
            <InvoiceLines caption={`${t.subscriptions.change.nextAfter} (${date(answer.next_invoice.issued_at)})`} invoice={answer.next_invoice} toDate />
          )}
          <ErrorMessage error={confirm.error} fieldLabel={fieldLabel} />
          <button type="button" onClick={() => void apply()} disabled={confirm.pending}>
            {t.subscriptions.change.confirm}
          </button>
        </div>
      )}
    </ConfirmPanel>
  );
}

import { useId, useRef, useState } from 'react';
import { portalCall } from '../api/call';
import { useIdempotencyKey } from '../api/idempotency';
import type { Subscription } from '../api/types';
import { useAction } from '../api/useAction';
import { useI18n } from '../i18n/I18n';
import { useSession } from '../session';
import { ConfirmPanel } from './ConfirmPanel';
import { ErrorMessage } from './ErrorMessage';
import { periodEnd } from './periodEnd';

const COMMENT_MAX = 500;

/**
 * Cancelling as the merchant's settings allow: exactly the one mode they name (at period end, or
 * at once), or no button at all. The comment is optional; the reason is always the customer's
 * request (spec 2.4), which the platform sets.
 */
export function CancelSubscription({ subscription, onCancelled }: { subscription: Subscription; onCancelled(subscription: Subscription, notice: string): void }) {
  const { t, date } = useI18n();
  const { info } = useSession();
  const id = useId();
  const [open, setOpen] = useState(false);
  const [comment, setComment] = useState('');
  const opener = useRef<HTMLButtonElement>(null);
  const key = useIdempotencyKey();
  const cancel = useAction(async (body: { id: string; comment?: string }) => {
    try {
      const answer = await portalCall<Subscription>('subscriptions/cancel', body, { idempotencyKey: key.keyFor(body) });
      key.settled();
      return answer;
    } catch (error) {
      key.settled(error);
      throw error;
    }
  });

  const mode = info.settings.cancellation;
  if (mode === 'NEVER') return null;
  const end = periodEnd(subscription);

  const dismiss = () => {
    setOpen(false);
    cancel.reset();
    // The panel's controls are gone: focus goes back to the button that opened it.
    requestAnimationFrame(() => opener.current?.focus());
  };
  const confirm = async () => {
    const trimmed = comment.trim();
    const answer = await cancel.run({ id: subscription.id, ...(trimmed ? { comment: trimmed } : {}) });
    if (!answer) return;
    const endsAt = answer.cancellation_info?.cancel_at;
    onCancelled(answer, answer.status === 'CANCELLED' || !endsAt ? t.subscriptions.cancel.done : t.subscriptions.cancel.scheduled(date(endsAt)));
  };

  if (!open) {
    return (
      <button type="button" className="danger" ref={opener} onClick={() => setOpen(true)}>
        {t.subscriptions.cancel.open}
      </button>
    );
  }
  return (
    <ConfirmPanel heading={t.subscriptions.cancel.heading} onDismiss={dismiss}>
      <p>
        {mode === 'IMMEDIATELY'
          ? t.subscriptions.cancel.immediately
          : end
            ? t.subscriptions.cancel.atPeriodEnd(date(end))
            : t.subscriptions.cancel.atPeriodEndUnknown}
      </p>
      <label htmlFor={`${id}-comment`}>{t.subscriptions.cancel.comment}</label>
      <textarea id={`${id}-comment`} value={comment} onChange={(event) => setComment(event.target.value)} maxLength={COMMENT_MAX} rows={3} />
      <ErrorMessage error={cancel.error} fieldLabel={(path) => (path === 'comment' ? t.subscriptions.cancel.comment : undefined)} />
      <div className="actions">
        <button type="button" className="danger" onClick={() => void confirm()} disabled={cancel.pending}>
          {t.subscriptions.cancel.confirm}
        </button>
        <button type="button" className="secondary" onClick={dismiss}>
          {t.subscriptions.cancel.keep}
        </button>
      </div>
    </ConfirmPanel>
  );
}

import type { Client } from '@temporalio/client';
import { ApiError } from '../../domain/errors';
import { restore } from '../../domain/subscriptions/restore';
import type { Prisma } from '../../prisma/client';
import { resolveDiscounts } from '../invoices/repository';
import { lockSubscription, lockSubscriptionStart, stateOfRow, writeSubscription } from './repository';
import { refusedAsApiError, startSubscriptionWorkflow } from './workflow-client';

export interface RestoreInput {
  accountId: string;
  subscriptionId: string;
  /** The new ends_at. Left out: the restored subscription is open-ended. The v1 caller replaces a past value with now. */
  expiresAt?: Date;
  /** A coupon to add to the discounts, by id or by code. */
  coupon?: { id?: string; code?: string };
}

/**
 * Restores a CANCELLED subscription (section 4.12; docs/subscriptions.md, "Restore"): back to
 * ACTIVE with SubscriptionActivated, billing from the next cycle boundary after now (the time it
 * was cancelled is never charged). The row changes and a new run of the subscription's workflow
 * starts in the caller's transaction `tx` (the v1 transport records its answer in it too).
 * NOT_FOUND for an id of no subscription of the account; 422 INCOMPATIBLE_STATUS unless
 * CANCELLED, COUPON_NOT_FOUND, COUPON_CURRENCY_MISMATCH.
 */
export async function restoreSubscription(
  deps: { temporal: Client; now: () => Date },
  tx: Prisma.TransactionClient,
  input: RestoreInput,
): Promise<void> {
  const now = deps.now();
  await lockSubscriptionStart(tx, input.subscriptionId);
  const row = await lockSubscription(tx, input.subscriptionId);
  if (!row || row.accountId !== input.accountId) throw ApiError.notFound('Subscription', input.subscriptionId);
  const coupon = input.coupon?.id ? { coupon_id: input.coupon.id } : input.coupon?.code ? { coupon_code: input.coupon.code } : null;
  const [discount] = coupon ? await resolveDiscounts(tx, input.accountId, row.currency, [coupon]) : [];
  const step = refusedAsApiError(() =>
    restore(stateOfRow(row), { expiresAt: input.expiresAt ? input.expiresAt.getTime() : null, discount: discount ?? null }, now.getTime()),
  );
  await writeSubscription(tx, row, step.state, step.events);
  await startSubscriptionWorkflow(deps.temporal, step.state);
}

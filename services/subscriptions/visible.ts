import { ApiError } from '../../domain/errors';
import type { Prisma } from '../../prisma/client';
import type { Scope } from '../scope';
import { readSubscriptionRow } from './subscription-read';
import type { SubscriptionRow } from './subscription-row';

/** The subscription as the caller may see it: unknown or outside the scope's channels is 404. */
export async function visibleSubscription(db: Prisma.TransactionClient, scope: Scope, id: string): Promise<SubscriptionRow> {
  const row = await readSubscriptionRow(db, id, scope.accountId);
  if (!row || (scope.channels !== null && !scope.channels.includes(row.channelId))) throw ApiError.notFound('Subscription', id);
  return row;
}

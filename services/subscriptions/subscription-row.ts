import type { Prisma } from '../../generated/prisma/client';

/** The read model of a subscription the workflow writes: its row and lines, as every reader loads them. */
export const subscriptionSelect = {
  id: true,
  accountId: true,
  channelId: true,
  customerId: true,
  status: true,
  currency: true,
  paymentInstrumentId: true,
  collectionMethod: true,
  latestInvoiceId: true,
  description: true,
  merchantReference: true,
  metadata: true,
  discounts: true,
  trialInfo: true,
  cancellationInfo: true,
  settings: true,
  startScheduledAt: true,
  startedAt: true,
  nextBillingAt: true,
  anchorAt: true,
  endsAt: true,
  cycleCount: true,
  version: true,
  createdAt: true,
  updatedAt: true,
  lineItems: { orderBy: { position: 'asc' } },
} as const satisfies Prisma.SubscriptionSelect;

export type SubscriptionRow = Prisma.SubscriptionGetPayload<{ select: typeof subscriptionSelect }>;

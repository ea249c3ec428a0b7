import { ApiError } from '../../domain/errors';
import { newId } from '../../domain/ids';
import type { Prisma } from '../../prisma/client';
import { insertWebhookSecret } from '../secrets/issued-secrets';
import { endpointSelect } from './endpoints';

type Db = Prisma.TransactionClient;

/**
 * ENDPOINT_ALREADY_EXISTS: one live endpoint per URL and account. Two concurrent creates of one
 * URL would both find none, so the check runs under a transaction-scoped advisory lock on
 * (account, url): the second waits for the first to commit, then sees its endpoint.
 */
export async function assertUrlFree(tx: Db, accountId: string, url: string, exceptId?: string): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`webhook-url:${accountId}:${url}`}))`;
  const existing = await tx.webhookEndpoint.findFirst({
    where: { accountId, url, deletedAt: null, ...(exceptId ? { id: { not: exceptId } } : {}) },
    select: { id: true },
  });
  if (existing) {
    throw new ApiError('ENDPOINT_ALREADY_EXISTS', `A webhook endpoint for ${url} already exists: ${existing.id}.`, { endpoint_id: existing.id });
  }
}

export interface NewEndpoint {
  accountId: string;
  channelId: string | null;
  url: string;
  description?: string;
  eventTypes: string[];
  now: Date;
}

export async function insertEndpoint(tx: Db, endpoint: NewEndpoint) {
  await assertUrlFree(tx, endpoint.accountId, endpoint.url);
  const id = newId('webhookEndpoint', endpoint.now.getTime());
  await tx.webhookEndpoint.create({
    data: {
      id,
      accountId: endpoint.accountId,
      channelId: endpoint.channelId,
      url: endpoint.url,
      description: endpoint.description ?? null,
      status: 'INACTIVE',
      eventTypes: endpoint.eventTypes,
      createdAt: endpoint.now,
      updatedAt: endpoint.now,
    },
  });
  const { secret } = await insertWebhookSecret(tx, id, endpoint.now);
  const row = await tx.webhookEndpoint.findUniqueOrThrow({ where: { id }, select: endpointSelect });
  return { row, secret };
}

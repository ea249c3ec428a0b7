import { insertApiKey } from '../../services/api-keys/repository';
import { newId } from '../../domain/ids';
import { PERMISSIONS } from '../../domain/permissions';
import type { Database } from '../../prisma/client';

/**
 * What an operator does from the shell (and the first start does once): accounts, channels
 * and API keys. Keys go through the same repository as `api-keys/create`.
 */
export async function createAccount(db: Database, name: string) {
  return db.account.create({
    data: { id: newId('account'), name },
    select: { id: true, name: true },
  });
}

/** The account's first channel becomes its default one. */
export async function createChannel(db: Database, accountId: string, name: string) {
  return db.$transaction(async (tx) => {
    const channel = await tx.channel.create({ data: { id: newId('channel'), accountId, name }, select: { id: true, name: true } });
    await tx.account.updateMany({ where: { id: accountId, defaultChannelId: null }, data: { defaultChannelId: channel.id } });
    return channel;
  });
}

export interface OperatorKey {
  accountId: string;
  name: string;
  channelIds?: string[];
  permissions?: string[];
}

/** Every permission unless told otherwise; returns the secret, which is shown once. */
export async function createOperatorApiKey(db: Database, key: OperatorKey) {
  return db.$transaction((tx) =>
    insertApiKey(tx, {
      accountId: key.accountId,
      name: key.name,
      channelIds: key.channelIds ?? [],
      permissions: key.permissions ?? [...PERMISSIONS],
      now: new Date(),
    }),
  );
}

export interface Bootstrap {
  accountId: string;
  channelId: string;
  apiKeyId: string;
  secret: string;
}

/**
 * The first start's account: one default channel and one account-level key with every
 * permission. Returns null when any account exists, so it runs only on an empty database.
 * The advisory lock keeps two starts racing on one database from both bootstrapping.
 */
export async function bootstrapFirstAccount(db: Database): Promise<Bootstrap | null> {
  return db.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(727001)`;
    if ((await tx.account.count()) > 0) return null;
    const channelId = newId('channel');
    const account = await tx.account.create({
      data: { id: newId('account'), name: 'Default account', defaultChannelId: channelId },
    });
    const channel = await tx.channel.create({ data: { id: channelId, accountId: account.id, name: 'Default channel' } });
    const { row, secret } = await insertApiKey(tx, {
      accountId: account.id,
      name: 'Bootstrap key',
      description: 'Created on first start with every permission.',
      channelIds: [],
      permissions: [...PERMISSIONS],
      now: new Date(),
    });
    return { accountId: account.id, channelId: channel.id, apiKeyId: row.id, secret };
  });
}

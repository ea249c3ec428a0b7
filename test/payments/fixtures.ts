import { brandOf, scenarioOf } from '../../domain/cards';
import { newId, newUlid } from '../../domain/ids';
import { normaliseFieldValue, type AntifraudAction, type AntifraudField } from '../../domain/antifraud';
import type { RouteTree } from '../../domain/routing';
import type { Database, Prisma } from '../../prisma/client';
import { createAccount, createChannel } from '../../scripts/operator/accounts';

/**
 * Rows written straight through Prisma: the customers and tokenize APIs are not these tests'
 * subject, and the charge path reads only what they would store.
 */
export async function seedAccount(db: Database) {
  const account = await createAccount(db, 'payments');
  const channels = [await createChannel(db, account.id, 'web'), await createChannel(db, account.id, 'app')];
  return { accountId: account.id, channelIds: channels.map((c) => c.id) as [string, string] };
}

export interface CustomerSeed {
  accountId: string;
  channelId: string;
  email?: string;
  country?: string;
}

export async function seedCustomer(db: Database, seed: CustomerSeed): Promise<string> {
  const id = newId('customer');
  const now = new Date();
  await db.customer.create({
    data: {
      id,
      accountId: seed.accountId,
      channelId: seed.channelId,
      type: 'INDIVIDUAL',
      email: seed.email ?? `${id}@example.com`,
      address: seed.country ? { country: seed.country, city: 'Somewhere' } : undefined,
      tax: { taxability: 'TAXABLE' },
      status: 'ACTIVE',
      createdAt: now,
      updatedAt: now,
    },
  });
  return id;
}

export interface InstrumentSeed {
  accountId: string;
  channelId: string;
  customerId: string;
  number: string;
  status?: string;
  cardholderName?: string;
  expMonth?: number;
  expYear?: number;
}

export async function seedInstrument(db: Database, seed: InstrumentSeed): Promise<{ id: string; fingerprint: string }> {
  const id = newId('paymentInstrument');
  const fingerprint = `fp_${id}`;
  const now = new Date();
  await db.paymentInstrument.create({
    data: {
      id,
      accountId: seed.accountId,
      channelId: seed.channelId,
      customerId: seed.customerId,
      type: 'CARD',
      brand: brandOf(seed.number),
      last4: seed.number.slice(-4),
      expMonth: seed.expMonth ?? 12,
      expYear: seed.expYear ?? now.getUTCFullYear() + 3,
      cardholderName: seed.cardholderName ?? null,
      fingerprint,
      sandboxScenario: scenarioOf(seed.number),
      status: seed.status ?? 'ACTIVE',
      revokedAt: seed.status === 'REVOKED' ? now : null,
      createdAt: now,
      updatedAt: now,
    },
  });
  return { id, fingerprint };
}

/** A configuration with one published version, as routing-configs/publish-version leaves it. */
export async function publishRouteTree(db: Database, accountId: string, channelId: string | null, tree: RouteTree): Promise<string> {
  const now = new Date();
  const configId = newId('routingConfig');
  const versionId = newId('routingConfigVersion');
  await db.routingConfig.create({ data: { id: configId, accountId, channelId, name: 'test routes', createdAt: now, updatedAt: now } });
  await db.routingConfigVersion.create({
    data: {
      id: versionId,
      routingConfigId: configId,
      version: 1,
      status: 'PUBLISHED',
      routeTree: tree as unknown as Prisma.InputJsonValue,
      publishedAt: now,
      createdAt: now,
      updatedAt: now,
    },
  });
  await db.routingConfig.update({ where: { id: configId }, data: { publishedVersionId: versionId } });
  return configId;
}

export async function seedAntifraudItem(
  db: Database,
  item: { accountId: string; field: AntifraudField; action: AntifraudAction; value: string; expiredAt?: Date },
): Promise<{ listId: string; itemId: string }> {
  const now = new Date();
  const listId = newUlid();
  const itemId = newUlid();
  await db.antifraudList.create({
    data: { id: listId, accountId: item.accountId, name: `${item.action} ${item.field}`, field: item.field, action: item.action, createdAt: now, updatedAt: now },
  });
  await db.antifraudListItem.create({
    data: {
      id: itemId,
      accountId: item.accountId,
      listId,
      fieldValue: normaliseFieldValue(item.field, item.value),
      expiredAt: item.expiredAt ?? null,
      createdBy: 'test',
      createdAt: now,
      updatedAt: now,
    },
  });
  return { listId, itemId };
}

/** What the sandbox providers hold for one payment, oldest first. */
export function booksOf(db: Database, paymentId: string) {
  return db.sandboxProviderCharge.findMany({ where: { idempotencyKey: { startsWith: `${paymentId}/` } }, orderBy: { id: 'asc' } });
}

import { ApiError } from '../../domain/errors';
import { newId } from '../../domain/ids';
import type { RouteTree } from '../../domain/routing';
import type { Prisma } from '../../prisma/client';
import { channelVisible, isAccountLevel, type ChannelScope } from '../../domain/channel-scope';

type Db = Prisma.TransactionClient;

export const routingConfigSelect = {
  id: true,
  name: true,
  channelId: true,
  publishedVersionId: true,
  createdAt: true,
  updatedAt: true,
} as const;

export const routingConfigVersionSelect = {
  id: true,
  routingConfigId: true,
  version: true,
  status: true,
  routeTree: true,
  description: true,
  publishedAt: true,
  createdAt: true,
  updatedAt: true,
} as const;

/** The account-wide configuration belongs to account-level keys; a channel's to keys of that channel. */
export function configVisible(principal: ChannelScope, channelId: string | null): boolean {
  return channelId === null ? isAccountLevel(principal) : channelVisible(principal, channelId);
}

export async function findRoutingConfig(db: Db, principal: ChannelScope, id: string) {
  const row = await db.routingConfig.findFirst({ where: { id, accountId: principal.accountId }, select: routingConfigSelect });
  return row && configVisible(principal, row.channelId) ? row : null;
}

export async function findRoutingConfigVersion(db: Db, principal: ChannelScope, id: string) {
  const row = await db.routingConfigVersion.findFirst({
    where: { id, routingConfig: { accountId: principal.accountId } },
    select: { ...routingConfigVersionSelect, routingConfig: { select: { channelId: true } } },
  });
  return row && configVisible(principal, row.routingConfig.channelId) ? row : null;
}

/**
 * Takes the configuration's row lock: versions of one configuration are numbered and published
 * one after the other. Returns null when the configuration is not the caller's to change.
 */
async function lockRoutingConfig(tx: Db, principal: ChannelScope, id: string): Promise<{ channelId: string | null } | null> {
  const rows = await tx.$queryRaw<Array<{ channel_id: string | null }>>`
    SELECT channel_id FROM routing_configs WHERE id = ${id} AND account_id = ${principal.accountId} FOR UPDATE`;
  const row = rows[0];
  return row && configVisible(principal, row.channel_id) ? { channelId: row.channel_id } : null;
}

export interface NewRoutingConfig {
  accountId: string;
  channelId: string | null;
  name: string;
  now: Date;
}

/** One configuration per (account, channel), the account-wide one included. */
export async function insertRoutingConfig(tx: Db, config: NewRoutingConfig) {
  // No unique index can cover the NULL channel of the account-wide configuration, so
  // concurrent creates for one scope are serialised here instead.
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`routing-config:${config.accountId}:${config.channelId ?? ''}`}))`;
  const existing = await tx.routingConfig.findFirst({
    where: { accountId: config.accountId, channelId: config.channelId },
    select: { id: true },
  });
  if (existing) {
    throw new ApiError(
      'ROUTING_CONFIG_ALREADY_EXISTS',
      config.channelId ? `Channel ${config.channelId} already has a routing configuration.` : 'The account already has an account-wide routing configuration.',
      { routing_config_id: existing.id },
    );
  }
  return tx.routingConfig.create({
    data: {
      id: newId('routingConfig', config.now.getTime()),
      accountId: config.accountId,
      channelId: config.channelId,
      name: config.name,
      createdAt: config.now,
      updatedAt: config.now,
    },
    select: routingConfigSelect,
  });
}

export interface NewRoutingConfigVersion {
  routingConfigId: string;
  routeTree: RouteTree;
  description?: string;
  now: Date;
}

/** A DRAFT numbered one above the configuration's latest version; null when the configuration is not found. */
export async function insertRoutingConfigVersion(tx: Db, principal: ChannelScope, version: NewRoutingConfigVersion) {
  if (!(await lockRoutingConfig(tx, principal, version.routingConfigId))) return null;
  const latest = await tx.routingConfigVersion.aggregate({
    where: { routingConfigId: version.routingConfigId },
    _max: { version: true },
  });
  return tx.routingConfigVersion.create({
    data: {
      id: newId('routingConfigVersion', version.now.getTime()),
      routingConfigId: version.routingConfigId,
      version: (latest._max.version ?? 0) + 1,
      status: 'DRAFT',
      routeTree: version.routeTree as unknown as Prisma.InputJsonValue,
      description: version.description ?? null,
      createdAt: version.now,
      updatedAt: version.now,
    },
    select: routingConfigVersionSelect,
  });
}

/**
 * DRAFT → PUBLISHED; the version published before becomes ARCHIVED. Returns the published
 * version and its configuration's channel, or null when the version is not found.
 */
export async function publishRoutingConfigVersion(tx: Db, principal: ChannelScope, versionId: string, now: Date) {
  const target = await tx.routingConfigVersion.findFirst({
    where: { id: versionId, routingConfig: { accountId: principal.accountId } },
    select: { routingConfigId: true },
  });
  if (!target) return null;
  const config = await lockRoutingConfig(tx, principal, target.routingConfigId);
  if (!config) return null;
  // Read again under the lock: a concurrent publish of the same version has committed by now.
  const version = await tx.routingConfigVersion.findUniqueOrThrow({ where: { id: versionId }, select: { status: true } });
  if (version.status !== 'DRAFT') {
    throw new ApiError('INCOMPATIBLE_STATUS', `Only a DRAFT version can be published; this one is ${version.status}.`, {
      status: version.status,
    });
  }
  await tx.routingConfigVersion.updateMany({
    where: { routingConfigId: target.routingConfigId, status: 'PUBLISHED' },
    data: { status: 'ARCHIVED', updatedAt: now },
  });
  const published = await tx.routingConfigVersion.update({
    where: { id: versionId },
    data: { status: 'PUBLISHED', publishedAt: now, updatedAt: now },
    select: routingConfigVersionSelect,
  });
  await tx.routingConfig.update({ where: { id: target.routingConfigId }, data: { publishedVersionId: versionId, updatedAt: now } });
  return { version: published, channelId: config.channelId };
}

export async function unknownChannel(db: Db, accountId: string, channelId: string): Promise<boolean> {
  return (await db.channel.count({ where: { id: channelId, accountId } })) === 0;
}

import type { AntifraudAction, AntifraudField } from '../../domain/antifraud';
import { newUlid } from '../../domain/ids';
import type { Prisma } from '../../prisma/client';

type Db = Prisma.TransactionClient;

export const listSelect = { id: true, name: true, field: true, action: true, createdAt: true, updatedAt: true } as const;

export const itemSelect = {
  id: true,
  listId: true,
  fieldValue: true,
  expiredAt: true,
  description: true,
  createdBy: true,
  createdByApiKeyId: true,
  createdAt: true,
  updatedAt: true,
} as const;

export async function antifraudEnabled(db: Db, accountId: string): Promise<boolean> {
  const account = await db.account.findUniqueOrThrow({ where: { id: accountId }, select: { antifraudEnabled: true } });
  return account.antifraudEnabled;
}

export function findList(db: Db, accountId: string, id: string) {
  return db.antifraudList.findFirst({ where: { id, accountId }, select: listSelect });
}

export interface NewList {
  accountId: string;
  name: string;
  field: AntifraudField;
  action: AntifraudAction;
  now: Date;
}

export function insertList(tx: Db, list: NewList) {
  return tx.antifraudList.create({
    data: {
      id: newUlid(list.now.getTime()),
      accountId: list.accountId,
      name: list.name,
      field: list.field,
      action: list.action,
      createdAt: list.now,
      updatedAt: list.now,
    },
    select: listSelect,
  });
}

export interface ListChanges {
  name?: string;
  action?: AntifraudAction;
}

/** Returns null when the account has no such list. */
export async function updateList(tx: Db, accountId: string, id: string, changes: ListChanges, now: Date) {
  const updated = await tx.antifraudList.updateMany({ where: { id, accountId }, data: { ...changes, updatedAt: now } });
  if (updated.count === 0) return null;
  return tx.antifraudList.findUniqueOrThrow({ where: { id }, select: listSelect });
}

/**
 * Reads the list and holds its row lock until the transaction ends, so two concurrent
 * create-item calls with one value cannot both pass the duplicate check.
 */
export async function lockList(tx: Db, accountId: string, id: string): Promise<{ id: string; field: AntifraudField } | undefined> {
  const rows = await tx.$queryRaw<Array<{ id: string; field: AntifraudField }>>`
    SELECT id, field FROM antifraud_lists WHERE id = ${id} AND account_id = ${accountId} FOR UPDATE`;
  return rows[0];
}

/** An item of the list with this (normalised) value that still matches payments at `now`. */
export function findLiveItem(tx: Db, listId: string, fieldValue: string, now: Date) {
  return tx.antifraudListItem.findFirst({
    where: { listId, fieldValue, OR: [{ expiredAt: null }, { expiredAt: { gt: now } }] },
    select: { id: true },
  });
}

export interface NewItem {
  accountId: string;
  listId: string;
  fieldValue: string;
  expiredAt?: Date;
  description?: string;
  createdBy?: string;
  createdByApiKeyId?: string;
  now: Date;
}

export function insertItem(tx: Db, item: NewItem) {
  return tx.antifraudListItem.create({
    data: {
      id: newUlid(item.now.getTime()),
      accountId: item.accountId,
      listId: item.listId,
      fieldValue: item.fieldValue,
      expiredAt: item.expiredAt ?? null,
      description: item.description ?? null,
      createdBy: item.createdBy ?? null,
      createdByApiKeyId: item.createdByApiKeyId ?? null,
      createdAt: item.now,
      updatedAt: item.now,
    },
    select: itemSelect,
  });
}

/** Hard delete; returns the item as it was, or null when the account has no such item. */
export async function deleteItem(tx: Db, accountId: string, id: string) {
  const row = await tx.antifraudListItem.findFirst({ where: { id, accountId }, select: itemSelect });
  if (!row) return null;
  const deleted = await tx.antifraudListItem.deleteMany({ where: { id, accountId } });
  return deleted.count === 1 ? row : null;
}

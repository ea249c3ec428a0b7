import { ApiError } from '../../domain/errors';
import type { Prisma } from '../../prisma/client';
import type { Scope } from '../scope';
import { creditNoteSelect, type CreditNoteRow } from './credit-note-object';

type Db = Prisma.TransactionClient;

/** Unknown, or in a channel the key cannot reach (or other than the `channel_id` named): 404, as for invoices. */
export async function visibleCreditNote(db: Db, scope: Scope, id: string): Promise<CreditNoteRow> {
  const row = await db.creditNote.findFirst({ where: { id, accountId: scope.accountId }, select: creditNoteSelect });
  if (!row || (scope.channels !== null && !scope.channels.includes(row.channelId))) throw ApiError.notFound('Credit note', id);
  return row;
}

/** Column conditions of credit-notes/list, already in Prisma's terms. */
export interface CreditNoteListWhere {
  invoiceId?: Prisma.StringFilter;
  customerId?: Prisma.StringFilter;
  status?: Prisma.StringFilter;
  createdAt?: Prisma.DateTimeFilter;
}

/** One keyset page of credit-notes/list, newest first: `take` rows with ids below `beforeId`. */
export function findCreditNotes(db: Db, scope: Scope, where: CreditNoteListWhere, beforeId: string | undefined, take: number): Promise<CreditNoteRow[]> {
  return db.creditNote.findMany({
    where: {
      accountId: scope.accountId,
      ...(scope.channels !== null ? { channelId: { in: [...scope.channels] } } : {}),
      ...where,
      ...(beforeId ? { id: { lt: beforeId } } : {}),
    },
    orderBy: { id: 'desc' },
    take,
    select: creditNoteSelect,
  });
}

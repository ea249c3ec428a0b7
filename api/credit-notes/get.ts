import { z } from 'zod';
import { serializeCreditNote } from '../../services/credit-notes/credit-note-object';
import { visibleCreditNote } from '../../services/credit-notes/repository';
import { operationScope } from '../auth/channel-scope';
import { channelIdField } from '../common/schemas';
import { authorizedProcedure, operation } from '../trpc';
import { creditNoteId, creditNoteObject } from './schemas';

export const getCreditNote = authorizedProcedure
  .meta(operation('credit-notes/get', { summary: 'Get a credit note', description: 'Credit notes outside the key’s channels are 404.' }))
  .input(z.strictObject({ id: creditNoteId, channel_id: channelIdField }))
  .output(creditNoteObject)
  .query(async ({ ctx, input }) => serializeCreditNote(await visibleCreditNote(ctx.db, operationScope(ctx.principal, input.channel_id), input.id), ctx.now()));

import { z } from 'zod';
import { operationScope } from '../auth/channel-scope';
import { channelIdField } from '../common/schemas';
import { authorizedProcedure, operation } from '../trpc';
import { readVisibleInvoiceObject } from '../../services/invoices/invoice-read';
import { invoiceId, invoiceObject } from './schemas';

export const getInvoice = authorizedProcedure
  .meta(operation('invoices/get', { summary: 'Get an invoice', description: 'Deleted invoices and invoices outside the key’s channels are 404.' }))
  .input(z.strictObject({ id: invoiceId, channel_id: channelIdField }))
  .output(invoiceObject)
  .query(({ ctx, input }) => readVisibleInvoiceObject(ctx.db, operationScope(ctx.principal, input.channel_id), input.id, ctx.now()));

import { z } from 'zod';
import { ApiError } from '../../../domain/errors';
import { readPortalSettings } from '../../../services/portal/settings';
import { addressRequest, email, preferredLocales, taxRegistrationRequest, type CustomerObject } from '../../customers/schemas';
import { portalOperation } from '../operation';
import { callV2 } from '../v2-call';

/**
 * What a customer may change about themselves: not the taxability and not a registration's
 * validation, which are the merchant's findings, only the registrations they hold.
 */
const billingDetailsRequest = z.strictObject({
  email: email.optional(),
  address: addressRequest.nullable().optional(),
  tax_registrations: z.array(taxRegistrationRequest.omit({ validation: true })).nullable().optional(),
  preferred_locales: preferredLocales.optional(),
});

export const billingDetailsOperations = {
  'billing-details/update': portalOperation(billingDetailsRequest, async (ctx, input) => {
    const { actor } = ctx.session;
    const settings = await readPortalSettings(ctx.db, actor.accountId);
    const changesDetails = input.email !== undefined || input.address !== undefined || input.tax_registrations !== undefined;
    if (changesDetails && !settings.billing_details_updates) {
      throw new ApiError('PERMISSION_DENIED', 'This account does not let customers change their billing details; contact the merchant.', { portal_setting: 'billing_details_updates' });
    }
    const update: Record<string, unknown> = { id: actor.customerId };
    if (input.email !== undefined) update.email = input.email;
    if (input.address !== undefined) update.address = input.address;
    if (input.preferred_locales !== undefined) update.configuration = { preferred_locales: input.preferred_locales };
    if (input.tax_registrations !== undefined) {
      const current = await callV2<CustomerObject>(ctx.v2, 'customers.get', { id: actor.customerId });
      update.tax = { taxability: current.tax.taxability, registrations: input.tax_registrations };
    }
    return { body: await callV2(ctx.v2, 'customers.update', update, ctx.v2.idempotencyKey) };
  }),
};

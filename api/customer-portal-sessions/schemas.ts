import { z } from 'zod';
import { channelIdField, dateTime, prefixedId } from '../common/schemas';
import { customerId } from '../customers/schemas';

/** `https`, or `http` to this machine (a merchant's local development). */
const RETURN_URL = /^(https:\/\/[^\s/?#]+|http:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d+)?)([/?#]\S*)?$/;

export const returnUrl = z
  .string()
  .max(2048)
  .regex(RETURN_URL, { error: 'Expected an https URL, or http to localhost.' })
  .meta({ description: 'Where the portal’s “back” link and sign-out go: `https`, or `http` to localhost. At most 2,048 characters.' });

export const portalLocale = z
  .string()
  .max(35)
  .regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/)
  .meta({ description: 'A BCP 47 tag the portal shows first (it speaks `en` and `de`); without it the customer’s `preferred_locales` decide, then English.' });

export const createCustomerPortalSessionRequest = z.strictObject({
  customer_id: customerId,
  channel_id: channelIdField,
  return_url: returnUrl.optional(),
  locale: portalLocale.optional(),
});

export const customerPortalSessionObject = z
  .object({
    id: prefixedId('customerPortalSession'),
    customer_id: customerId,
    url: z.string().meta({
      description: 'The one-time link to the customer portal: valid for 10 minutes, opens once. Redirect the signed-in customer there; never e-mail it. Answered only here.',
    }),
    return_url: z.string().optional(),
    locale: z.string().optional(),
    expires_at: dateTime.meta({ description: 'The link is refused from then on.' }),
    created_at: dateTime,
  })
  .meta({ id: 'CustomerPortalSession' });

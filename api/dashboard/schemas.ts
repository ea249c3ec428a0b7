import { z } from 'zod';
import { DASHBOARD_ROLES } from '../../domain/dashboard-roles';
import { MAX_SWITCHABLE_PRICES, PORTAL_CANCELLATION_MODES } from '../../domain/portal/settings';
import { MAX_PAGE_SIZE } from '../common/pagination';
import { dateTime, prefixedId } from '../common/schemas';
import { catalogueId } from '../products/schemas';

/** The request bodies of `/dashboard/api/*` (docs/dashboard.md; the contract of issue 19). */

const token = z.string().min(1).max(256);
const email = z.string().min(1).max(254);
/** Length rules are the service's (services/dashboard/password-length.ts), so they are written once. */
const password = z.string().max(1024);
const totpCode = z.string().max(16);
const role = z.enum(DASHBOARD_ROLES);

export const acceptInvitationRequest = z.strictObject({ token, password });
export const invitationRequest = z.strictObject({ token });
export const signInRequest = z.strictObject({
  email,
  password: z.string().min(1).max(1024),
  totp_code: totpCode.optional(),
  account_id: prefixedId('account').optional(),
});
export const emptyRequest = z.strictObject({});
export const totpCodeRequest = z.strictObject({ code: totpCode });
export const totpEnrollRequest = z.strictObject({ password });
export const totpDisableRequest = z.strictObject({ code: totpCode, password });
export const changePasswordRequest = z.strictObject({ current_password: password, new_password: password });
export const passwordResetRequest = z.strictObject({ token });
export const resetPasswordRequest = z.strictObject({ token, password });

const pageRequest = {
  cursor: z.string().max(512).optional(),
  limit: z.number().int().min(1).max(MAX_PAGE_SIZE).optional(),
};

export const listUsersRequest = z.strictObject(pageRequest);
export const inviteUserRequest = z.strictObject({ email, role });
export const updateRoleRequest = z.strictObject({ user_id: prefixedId('dashboardUser'), role });
export const removeUserRequest = z.strictObject({ user_id: prefixedId('dashboardUser'), revoke_api_keys: z.boolean().optional() });
export const listIssuedApiKeysRequest = z.strictObject({ user_id: prefixedId('dashboardUser') });
export const sendPasswordResetRequest = z.strictObject({ user_id: prefixedId('dashboardUser') });
export const listInvitationsRequest = z.strictObject(pageRequest);
export const revokeInvitationRequest = z.strictObject({ invitation_id: prefixedId('dashboardInvitation') });
export const listAuditLogRequest = z.strictObject({
  ...pageRequest,
  user_id: z.string().min(1).max(64).optional(),
  action: z.string().min(1).max(100).optional(),
  object_id: z.string().min(1).max(100).optional(),
  created_at: z.strictObject({ from: dateTime.optional(), to: dateTime.optional() }).optional(),
});

/** Formats are the service's (domain/stripe-credentials.ts), so a refusal names its field in the one way the page shows. */
export const connectStripeRequest = z.strictObject({
  secret_key: z.string().max(512),
  webhook_secret: z.string().max(512),
  api_base: z.string().max(2048).nullable().optional(),
  publishable_key: z.string().max(512).nullable().optional(),
});

/** The whole PortalSettings object (docs/portal.md, "Settings"), every field required: it replaces the stored one. */
export const updatePortalSettingsRequest = z.strictObject({
  cancellation: z.enum(PORTAL_CANCELLATION_MODES),
  quantity_changes: z.boolean(),
  switchable_price_ids: z.array(catalogueId).max(MAX_SWITCHABLE_PRICES),
  billing_details_updates: z.boolean(),
});

import { csrfHeaders, setCsrfToken } from './csrf';
import { envelopeOf, RequestFailed } from './errors';

export type Role = 'MERCHANT_ADMIN' | 'DEVELOPER' | 'SUPPORT';

export interface DashboardUser {
  id: string;
  email: string;
  role: Role;
  account_id?: string;
  created_at?: string;
  totp_enabled: boolean;
}

export interface Me {
  user: DashboardUser;
  /** The account's channels, oldest first: pages show a channel by its name. */
  account: { id: string; name: string; channels: { id: string; name: string }[] };
  csrf_token: string;
  permissions: string[];
}

export interface Invitation {
  email: string;
  role: Role;
  account_name: string;
}

export interface AuditEntry {
  id: string;
  /** USER: a dashboard user or their session's /v2 calls; CUSTOMER: a customer in the customer portal (docs/portal.md). */
  actor_type: 'USER' | 'CUSTOMER';
  /** The user's id, or for CUSTOMER the customer's. */
  user_id: string;
  user_email: string;
  action: string;
  object_id?: string | null;
  ip?: string | null;
  user_agent?: string | null;
  created_at: string;
}

export interface PendingInvitation {
  id: string;
  email: string;
  role: Role;
  invited_by: string | null;
  created_at: string;
  expires_at: string;
}

export interface PasswordReset {
  email: string;
  account_name: string;
}

/** An account's Stripe connection as `payment-providers/get` shows it: never a secret, only its last 4 characters. */
export interface StripeConnection {
  provider: 'stripe';
  livemode: boolean;
  secret_key_last4: string;
  webhook_secret_last4: string;
  api_base: string | null;
  /** Public, shown in full; null when none was saved. */
  publishable_key: string | null;
  /** `operator`, or the dashboard user's id. */
  connected_by: string;
  connected_at: string;
  updated_at: string;
}

export interface PaymentProviders {
  stripe: StripeConnection | null;
  /** Whether this platform lets the dashboard set the Stripe API address (STRIPE_API_BASE_EDITABLE). */
  api_base_editable: boolean;
}

export interface CursorPage<T> {
  data: T[];
  next_cursor: string | null;
}

/** The session API of docs/dashboard.md ("Sessions"): JSON over POST, same origin, the session cookie (`__Host-bp_session` over HTTPS). */
export async function sessionCall<T>(path: string, body: unknown = {}): Promise<T> {
  const response = await fetch(`/dashboard/api/${path}`, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'content-type': 'application/json', ...csrfHeaders() },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  const parsed: unknown = text ? JSON.parse(text) : undefined;
  if (!response.ok) throw new RequestFailed(response.status, envelopeOf(response.status, parsed));
  return parsed as T;
}

export async function fetchMe(): Promise<Me | null> {
  try {
    const me = await sessionCall<Me>('session/me');
    setCsrfToken(me.csrf_token);
    return me;
  } catch (error) {
    if (error instanceof RequestFailed && error.status === 401) {
      setCsrfToken(undefined);
      return null;
    }
    throw error;
  }
}

export async function signIn(input: { email: string; password: string; totp_code?: string }): Promise<void> {
  const result = await sessionCall<{ csrf_token: string }>('session/sign-in', input);
  setCsrfToken(result.csrf_token);
}

export async function acceptInvitation(input: { token: string; password: string }): Promise<void> {
  const result = await sessionCall<{ csrf_token: string }>('session/accept-invitation', input);
  setCsrfToken(result.csrf_token);
}

export async function signOut(): Promise<void> {
  await sessionCall<void>('session/sign-out');
  setCsrfToken(undefined);
}

import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { buildServer } from '../../api/http/server';
import { RateLimiter } from '../../api/rate-limit/token-bucket';
import type { DashboardRole } from '../../domain/dashboard-roles';
import { createInvitation } from '../../services/dashboard/invitations';
import type { Platform } from '../support/platform';

export interface Answer<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

/**
 * What a browser does with the dashboard's cookie, over plain HTTP: keeps `bp_session` from
 * Set-Cookie, sends it back, and sends the CSRF token it learnt unless told not to.
 */
export class BrowserSession {
  cookie?: string;
  csrf?: string;

  constructor(private readonly baseUrl: () => string) {}

  async post<T = any>(path: string, body: unknown = {}, options: { csrf?: boolean | string; headers?: Record<string, string> } = {}): Promise<Answer<T>> {
    const csrf = options.csrf === false ? undefined : typeof options.csrf === 'string' ? options.csrf : this.csrf;
    const response = await fetch(`${this.baseUrl()}${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(this.cookie ? { cookie: `bp_session=${this.cookie}` } : {}),
        ...(csrf ? { 'x-csrf-token': csrf } : {}),
        ...options.headers,
      },
      body: JSON.stringify(body),
    });
    const setCookie = response.headers.get('set-cookie');
    if (setCookie?.startsWith('bp_session=')) this.cookie = setCookie.slice('bp_session='.length).split(';')[0] || undefined;
    const text = await response.text();
    const parsed = text ? JSON.parse(text) : undefined;
    if (parsed && typeof parsed.csrf_token === 'string') this.csrf = parsed.csrf_token;
    return { status: response.status, headers: response.headers, body: parsed };
  }
}

/** The token of an invitation link. */
export function tokenOf(url: string): string {
  return new URL(url).searchParams.get('token')!;
}

export async function invitationToken(platform: Platform, email: string, role: DashboardRole, now = new Date()): Promise<string> {
  const invitation = await createInvitation(platform.db, { accountId: platform.accountId, email, role, invitedBy: null }, now);
  return tokenOf(invitation.url);
}

export const PASSWORD = 'correct horse battery staple';

/** A signed-in user of the platform's account. */
export async function signedInUser(platform: Platform, email: string, role: DashboardRole): Promise<BrowserSession> {
  const browser = new BrowserSession(() => platform.baseUrl);
  const accepted = await browser.post('/dashboard/api/session/accept-invitation', { token: await invitationToken(platform, email, role), password: PASSWORD });
  if (accepted.status !== 200) throw new Error(`accept-invitation: ${accepted.status} ${JSON.stringify(accepted.body)}`);
  return browser;
}

/**
 * A second API process over the platform's database whose clock the test moves, for expiries;
 * `trustProxy` lets a test speak from several addresses through `X-Forwarded-For`.
 */
export async function serverWithClock(platform: Platform, clock: { now: Date }, options: { trustProxy?: boolean } = {}) {
  const server: FastifyInstance = buildServer(
    { db: platform.db, temporal: platform.env.client, rateLimiter: new RateLimiter(() => ({ ratePerSecond: 10_000, burst: 10_000 })), now: () => clock.now },
    { trustProxy: options.trustProxy ?? false },
  );
  await server.listen({ port: 0, host: '127.0.0.1' });
  return { server, baseUrl: `http://127.0.0.1:${(server.server.address() as AddressInfo).port}` };
}

import type { Platform } from '../support/platform';

export interface PortalResponse {
  status: number;
  headers: Headers;
  body: any;
}

/**
 * A customer's browser against the portal: opens a one-time link (keeping the cookie the answer
 * sets, as a browser would) and calls /portal/api with the CSRF token `session/me` gives.
 */
export class PortalClient {
  cookie?: string;
  csrf?: string;

  constructor(private readonly platform: Platform) {}

  /** GET the link without following the redirect: the answer's status, location and cookie. */
  async open(url: string): Promise<{ status: number; location: string | null; setCookie: string | null }> {
    const path = new URL(url).pathname;
    const response = await fetch(`${this.platform.baseUrl}${path}`, { redirect: 'manual', headers: { 'sec-fetch-site': 'cross-site' } });
    const setCookie = response.headers.get('set-cookie');
    const value = setCookie ? /^bp_portal=([^;]*)/.exec(setCookie)?.[1] : undefined;
    if (value) this.cookie = value;
    return { status: response.status, location: response.headers.get('location'), setCookie };
  }

  async post(path: string, body: unknown = {}, options: { csrf?: string | false; headers?: Record<string, string> } = {}): Promise<PortalResponse> {
    const csrf = options.csrf === undefined ? this.csrf : options.csrf || undefined;
    const response = await fetch(`${this.platform.baseUrl}/portal/api/${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(this.cookie ? { cookie: `bp_portal=${this.cookie}` } : {}),
        ...(csrf ? { 'x-csrf-token': csrf } : {}),
        ...options.headers,
      },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
  }

  /** Opens `url` and reads `session/me`, keeping its CSRF token. */
  async signIn(url: string): Promise<any> {
    const opened = await this.open(url);
    if (opened.status !== 303 || opened.location !== '/portal/') throw new Error(`The link was refused: ${opened.location}`);
    const me = await this.post('session/me');
    if (me.status !== 200) throw new Error(`session/me: ${me.status} ${JSON.stringify(me.body)}`);
    this.csrf = me.body.csrf_token;
    return me.body;
  }

  async ok(path: string, body: unknown = {}, headers?: Record<string, string>): Promise<any> {
    const response = await this.post(path, body, { headers });
    if (response.status !== 200) throw new Error(`${path}: ${response.status} ${JSON.stringify(response.body)}`);
    return response.body;
  }
}

/** customer-portal-sessions/create with the platform's root key. */
export async function portalLink(platform: Platform, customerId: string, extra: Record<string, unknown> = {}): Promise<{ id: string; url: string; expires_at: string }> {
  const response = await platform.call('/v2/customer-portal-sessions/create', { customer_id: customerId, ...extra });
  if (response.status !== 200) throw new Error(`customer-portal-sessions/create: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body;
}

export async function portalSignIn(platform: Platform, customerId: string, extra: Record<string, unknown> = {}): Promise<PortalClient> {
  const client = new PortalClient(platform);
  await client.signIn((await portalLink(platform, customerId, extra)).url);
  return client;
}

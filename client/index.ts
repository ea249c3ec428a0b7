import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { paths } from './schema';

export type { components, operations, paths } from './schema';

export interface BillingClientOptions {
  /** Where the API runs, without `/v2`: e.g. `http://localhost:3000`. */
  baseUrl: string;
  /** An API key secret (`asec_…`), sent as `Authorization: Bearer …` on every request. */
  apiKey?: string;
  /** A fetch of your own (tests, proxies, retries); `globalThis.fetch` otherwise. */
  fetch?: ClientOptions['fetch'];
  /** Headers sent on every request, beside the key's. */
  headers?: Record<string, string>;
}

export type BillingClient = Client<paths>;

/**
 * A client typed from the API's OpenAPI document (client/schema.d.ts): every operation is
 * `client.POST('/v2/{resources}/{action}', { body })`, its body and answers checked by the compiler.
 */
export function createBillingClient(options: BillingClientOptions): BillingClient {
  const headers = { ...options.headers, ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}) };
  return createClient<paths>({ baseUrl: options.baseUrl, fetch: options.fetch, headers });
}

/**
 * Stand-in for issue 16's typed client (`client/index.ts`, `createBillingClient` over
 * openapi-fetch) until it is merged: the same name and options, the same `POST` answer shape.
 */
export interface BillingClientOptions {
  baseUrl: string;
  fetch?: (request: Request) => Promise<Response>;
  headers?: Record<string, string>;
}

export interface BillingClient {
  POST(path: string, init: { body: unknown }): Promise<{ data?: unknown; error?: unknown; response: Response }>;
}

export function createBillingClient(options: BillingClientOptions): BillingClient {
  const send = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  return {
    async POST(path, init) {
      const request = new Request(`${options.baseUrl}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...options.headers },
        body: JSON.stringify(init.body),
      });
      const response = await send(request);
      const text = await response.clone().text();
      const parsed: unknown = text ? JSON.parse(text) : undefined;
      return response.ok ? { data: parsed, response } : { error: parsed, response };
    },
  };
}

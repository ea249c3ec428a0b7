import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { StripeObject } from './stripe-payout-objects';

/**
 * A Stripe account's payout books for the settlement tests, in front of stripe-mock. Neither
 * emulator can serve them: localstripe neither filters payouts by arrival date nor lists a
 * payout's balance transactions, and stripe-mock answers fixed fixtures. So every request is
 * first sent to stripe-mock, which must accept it (the SDK contract: Stripe's OpenAPI document
 * says it is a valid request); then payouts and their transactions are answered from the books
 * the test wrote, paged like Stripe's lists, and anything else with stripe-mock's answer.
 */

export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  /** stripe-mock's status for it. */
  contractStatus: number;
}

export interface StripePayoutBooks {
  url: string;
  /** Payouts of the account, as Stripe returns them. */
  payouts: StripeObject[];
  /** Each payout's balance transactions, sources expanded, its own among them. */
  transactions: Map<string, StripeObject[]>;
  /** Secret keys answered 401, as Stripe answers a revoked key. */
  revokedKeys: Set<string>;
  requests: RecordedRequest[];
  /** Requests stripe-mock refused, with its answer: each is a request the real API would refuse. */
  rejected: Array<{ method: string; url: string; status: number; body: string }>;
  stop(): Promise<void>;
}

/** Fewer than the SDK asks for, so that every list is read over several pages. */
const PAGE = 2;

function page(items: StripeObject[], query: URLSearchParams, url: string) {
  const after = query.get('starting_after');
  const start = after ? items.findIndex((item) => item.id === after) + 1 : 0;
  const limit = Math.min(PAGE, Number(query.get('limit') ?? 10));
  return { object: 'list', url, has_more: start + limit < items.length, data: items.slice(start, start + limit) };
}

function stripeError(res: ServerResponse, status: number, type: string, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { type, message } }));
}

async function bodyOf(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export async function startStripePayoutBooks(stripeMockUrl: string): Promise<StripePayoutBooks> {
  const books: Omit<StripePayoutBooks, 'url' | 'stop'> = { payouts: [], transactions: new Map(), revokedKeys: new Set(), requests: [], rejected: [] };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://books');
    const body = await bodyOf(req);
    const headers: Record<string, string> = {};
    for (const name of ['authorization', 'content-type', 'stripe-version', 'idempotency-key']) {
      const value = req.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    const checked = await fetch(`${stripeMockUrl}${url.pathname}${url.search}`, { method: req.method, headers, body: body.length ? body : undefined });
    const checkedBody = await checked.text();
    books.requests.push({ method: req.method ?? 'GET', path: url.pathname, query: url.searchParams, contractStatus: checked.status });
    if (!checked.ok) {
      books.rejected.push({ method: req.method ?? 'GET', url: req.url ?? '', status: checked.status, body: checkedBody });
      res.writeHead(checked.status, { 'content-type': 'application/json' }).end(checkedBody);
      return;
    }
    const key = /^Bearer (.+)$/.exec(headers.authorization ?? '')?.[1];
    if (key && books.revokedKeys.has(key)) return stripeError(res, 401, 'invalid_request_error', 'Expired API Key provided.');
    const json = (value: unknown): void => {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(value));
    };
    if (req.method === 'GET' && url.pathname === '/v1/payouts') {
      const gte = Number(url.searchParams.get('arrival_date[gte]') ?? -Infinity);
      const lt = Number(url.searchParams.get('arrival_date[lt]') ?? Infinity);
      const arriving = books.payouts.filter((p) => (p.arrival_date as number) >= gte && (p.arrival_date as number) < lt);
      return json(page(arriving.sort((a, b) => (b.created as number) - (a.created as number)), url.searchParams, '/v1/payouts'));
    }
    if (req.method === 'GET' && url.pathname === '/v1/balance_transactions' && url.searchParams.has('payout')) {
      const listed = books.transactions.get(url.searchParams.get('payout')!);
      if (!listed) return stripeError(res, 404, 'invalid_request_error', 'No such payout');
      return json(page([...listed].sort((a, b) => (b.created as number) - (a.created as number)), url.searchParams, '/v1/balance_transactions'));
    }
    res.writeHead(checked.status, { 'content-type': 'application/json' }).end(checkedBody);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: Error) => stripeError(res, 500, 'api_error', error.message));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    ...books,
    url: `http://127.0.0.1:${port}`,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

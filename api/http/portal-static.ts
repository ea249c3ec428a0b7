import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { ApiError } from '../../domain/errors';
import { stripeJsOrigins } from '../../services/payments/providers/stripe/js-url';
import { PROJECT_ROOT } from '../../services/project-root';
import { envelopeOf } from '../errors/envelope';

/** Where `npm run portal:build` writes the app (vite, portal/vite.config.ts). */
export const PORTAL_DIST = join(PROJECT_ROOT, 'portal', 'dist');

export interface PortalStaticOptions {
  distDir?: string;
  /** Read at each request, as the other settings of links and providers are: tests set STRIPE_JS_URL once their emulator runs. */
  env?: NodeJS.ProcessEnv;
}

/**
 * The dashboard's policy (same origin, no inline script) plus what Stripe.js needs
 * (STRIPE_JS_URL's origin for its script; for Stripe's own, api.stripe.com for its calls and
 * hooks.stripe.com for 3-D Secure frames): the card pages of a Stripe-connected account load it.
 * No referrer: a hosted invoice's signed link is in the page's own URL.
 */
export function portalPageHeaders(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const stripe = stripeJsOrigins(env);
  return {
    'content-security-policy': [
      "default-src 'self'",
      `script-src 'self' ${stripe.script.join(' ')}`,
      "style-src 'self'",
      "img-src 'self' data:",
      `connect-src 'self' ${stripe.connect.join(' ')}`,
      `frame-src ${stripe.frame.join(' ')}`,
      "frame-ancestors 'none'",
      "base-uri 'self'",
      "form-action 'self'",
    ].join('; '),
    'referrer-policy': 'no-referrer',
    'x-content-type-options': 'nosniff',
    'cache-control': 'no-cache',
  };
}

function notFound(reply: FastifyReply, message: string): FastifyReply {
  const { status, body } = envelopeOf(new ApiError('NOT_FOUND', message));
  return reply.code(status).type('application/json').send(body);
}

/**
 * The customer portal and hosted invoice pages under /portal/ (docs/portal.md): hashed assets
 * from portal/dist/assets (cached for good), every other GET below /portal answered with the
 * app's index.html so the app's own router shows the page. /portal/api/* and /portal/open/* are
 * the portal's transport (api/portal/routes.ts), never the app.
 */
export function registerPortalStatic(app: FastifyInstance, options: PortalStaticOptions = {}): void {
  const distDir = options.distDir ?? PORTAL_DIST;
  const indexPath = join(distDir, 'index.html');
  if (!existsSync(indexPath)) {
    const unbuilt = (_request: unknown, reply: FastifyReply) => notFound(reply, 'The customer portal is not built: run `npm run portal:build`.');
    app.get('/portal', unbuilt);
    app.get('/portal/*', unbuilt);
    return;
  }
  const html = readFileSync(indexPath, 'utf8');

  app.register(fastifyStatic, {
    root: join(distDir, 'assets'),
    prefix: '/portal/assets/',
    decorateReply: false,
    index: false,
    immutable: true,
    maxAge: '365d',
  });

  const page = (_request: unknown, reply: FastifyReply) =>
    reply.headers(portalPageHeaders(options.env ?? process.env)).type('text/html; charset=utf-8').send(html);
  app.get('/portal', page);
  app.get('/portal/*', (request, reply) => {
    const path = request.url.split('?')[0]!;
    if (path.startsWith('/portal/api/') || path.startsWith('/portal/open/') || path.startsWith('/portal/assets/')) {
      return notFound(reply, `No endpoint GET ${path}.`);
    }
    return page(request, reply);
  });
}

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { ApiError } from '../../domain/errors';
import { PROJECT_ROOT } from '../../services/project-root';
import { DEFAULT_TEMPORAL_NAMESPACE } from '../../services/temporal/connection-settings';
import { envelopeOf } from '../errors/envelope';

/** Where `npm run dashboard:build` writes the app (vite, dashboard/vite.config.ts). */
export const DASHBOARD_DIST = join(PROJECT_ROOT, 'dashboard', 'dist');

export interface DashboardStaticOptions {
  distDir?: string;
  temporalUiUrl?: string;
  temporalNamespace?: string;
}

/**
 * Same origin only, no inline script: data rendered by the app cannot become code even if a
 * page were ever to echo it. The invitation token travels in the URL, hence no referrer.
 */
const PAGE_HEADERS = {
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'",
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'cache-control': 'no-cache',
};

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function fillMeta(html: string, name: string, value: string): string {
  return html.replace(`<meta name="${name}" content="" />`, `<meta name="${name}" content="${escapeAttribute(value)}" />`);
}

function notFound(reply: FastifyReply, message: string): FastifyReply {
  const { status, body } = envelopeOf(new ApiError('NOT_FOUND', message));
  return reply.code(status).type('application/json').send(body);
}

/**
 * The merchant dashboard under /dashboard/: hashed assets from dashboard/dist/assets (cached
 * for good), every other GET below /dashboard answered with the app's index.html so the app's
 * own router shows the page (SPA fallback). /dashboard/api/* is the session API, never the app.
 */
export function registerDashboardStatic(app: FastifyInstance, options: DashboardStaticOptions = {}): void {
  const distDir = options.distDir ?? DASHBOARD_DIST;
  const indexPath = join(distDir, 'index.html');
  if (!existsSync(indexPath)) {
    const unbuilt = (_request: unknown, reply: FastifyReply) => notFound(reply, 'The dashboard is not built: run `npm run dashboard:build`.');
    app.get('/dashboard', unbuilt);
    app.get('/dashboard/*', unbuilt);
    return;
  }
  let html = readFileSync(indexPath, 'utf8');
  html = fillMeta(html, 'temporal-ui', options.temporalUiUrl ?? process.env.TEMPORAL_UI_URL ?? `http://localhost:${process.env.TEMPORAL_UI_PORT ?? 8233}`);
  html = fillMeta(html, 'temporal-namespace', options.temporalNamespace ?? process.env.TEMPORAL_NAMESPACE ?? DEFAULT_TEMPORAL_NAMESPACE);

  app.register(fastifyStatic, {
    root: join(distDir, 'assets'),
    prefix: '/dashboard/assets/',
    decorateReply: false,
    index: false,
    immutable: true,
    maxAge: '365d',
  });

  const page = (_request: unknown, reply: FastifyReply) => reply.headers(PAGE_HEADERS).type('text/html; charset=utf-8').send(html);
  app.get('/dashboard', page);
  app.get('/dashboard/*', (request, reply) => {
    if (request.url.startsWith('/dashboard/api/') || request.url.startsWith('/dashboard/assets/')) {
      return notFound(reply, `No endpoint GET ${request.url.split('?')[0]}.`);
    }
    return page(request, reply);
  });
}

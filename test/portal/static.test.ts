import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { registerPortalStatic } from '../../api/http/portal-static';

const INDEX = `<!doctype html><html><head>
<script type="module" src="/portal/assets/index-abc.js"></script></head><body><div id="root"></div></body></html>`;

interface Answer {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
  json(): any;
}

/** A real request (fastify's inject pulls in an ES module jest cannot load). */
async function get(app: FastifyInstance, url: string): Promise<Answer> {
  const response = await fetch(`http://127.0.0.1:${(app.server.address() as AddressInfo).port}${url}`, { redirect: 'manual' });
  const body = await response.text();
  return { statusCode: response.status, headers: Object.fromEntries(response.headers), body, json: () => JSON.parse(body) };
}

/** The CSP's directives by name: `script-src` → its sources. */
function directives(policy: string): Record<string, string[]> {
  return Object.fromEntries(
    policy.split(';').map((part) => {
      const [name, ...sources] = part.trim().split(/\s+/);
      return [name!, sources];
    }),
  );
}

describe('the customer portal served under /portal/', () => {
  let dist: string;
  let app: FastifyInstance;

  beforeAll(async () => {
    dist = mkdtempSync(join(tmpdir(), 'portal-dist-'));
    mkdirSync(join(dist, 'assets'));
    writeFileSync(join(dist, 'index.html'), INDEX);
    writeFileSync(join(dist, 'assets', 'index-abc.js'), 'console.log("portal")');
    app = Fastify();
    registerPortalStatic(app, { distDir: dist, env: { STRIPE_JS_URL: 'http://127.0.0.1:8420/js.stripe.com/v3/' } });
    // The portal's transport, as api/portal/routes.ts registers it beside the pages.
    app.get('/portal/open/:token', (_request, reply) => reply.code(303).header('location', '/portal/').send());
    await app.listen({ port: 0, host: '127.0.0.1' });
  });

  afterAll(async () => {
    await app.close();
    rmSync(dist, { recursive: true, force: true });
  });

  it.each([
    '/portal',
    '/portal/',
    '/portal/invoices',
    '/portal/payment-methods',
    '/portal/billing-details',
    '/portal/link-refused?reason=USED',
    '/portal/invoices/inv_01.c2lnbmF0dXJl',
  ])('answers %s with the app page (deep links), no referrer', async (url) => {
    const response = await get(app, url);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers['referrer-policy']).toBe('no-referrer');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.body).toContain('<div id="root"></div>');
  });

  it("allows scripts, frames and calls from this origin and STRIPE_JS_URL's origin alone, no inline script", async () => {
    const policy = directives((await get(app, '/portal/')).headers['content-security-policy']!);
    expect(policy['default-src']).toEqual(["'self'"]);
    expect(policy['script-src']).toEqual(["'self'", 'http://127.0.0.1:8420']);
    expect(policy['connect-src']).toEqual(["'self'", 'http://127.0.0.1:8420']);
    expect(policy['frame-src']).toEqual(['http://127.0.0.1:8420']);
    expect(policy['style-src']).toEqual(["'self'"]);
    expect(policy['frame-ancestors']).toEqual(["'none'"]);
  });

  it("defaults to Stripe's own Stripe.js, with what its script reaches: api.stripe.com and the 3-D Secure frames of hooks.stripe.com", async () => {
    const bare = Fastify();
    registerPortalStatic(bare, { distDir: dist, env: {} });
    await bare.listen({ port: 0, host: '127.0.0.1' });
    const policy = directives((await get(bare, '/portal/')).headers['content-security-policy']!);
    await bare.close();
    expect(policy['script-src']).toEqual(["'self'", 'https://js.stripe.com']);
    expect(policy['connect-src']).toEqual(["'self'", 'https://api.stripe.com']);
    expect(policy['frame-src']).toEqual(['https://js.stripe.com', 'https://hooks.stripe.com']);
  });

  it('serves hashed assets with a long cache and answers a missing one 404, never with the page', async () => {
    const asset = await get(app, '/portal/assets/index-abc.js');
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['content-type']).toContain('javascript');
    expect(asset.headers['cache-control']).toContain('immutable');
    const missing = await get(app, '/portal/assets/gone-123.js');
    expect(missing.statusCode).toBe(404);
    expect(missing.body).not.toContain('<div id="root">');
  });

  it.each(['/portal/api/session/me', '/portal/api/hosted-invoices/get', '/portal/open/a/b'])(
    'never answers the transport path %s with the app page',
    async (url) => {
      const response = await get(app, url);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ code: 'NOT_FOUND' });
    },
  );

  it("leaves /portal/open/<token> to the portal's own route", async () => {
    const response = await get(app, '/portal/open/tok_1');
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe('/portal/');
  });

  it('says how to build the portal when portal/dist is missing', async () => {
    const bare = Fastify();
    registerPortalStatic(bare, { distDir: join(dist, 'absent') });
    await bare.listen({ port: 0, host: '127.0.0.1' });
    const response = await get(bare, '/portal/invoices');
    expect(response.statusCode).toBe(404);
    expect(response.json().message).toContain('npm run portal:build');
    await bare.close();
  });
});

describe('the portal sources', () => {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.tsx?$/.test(name)) files.push(path);
    }
  };
  walk(join(__dirname, '..', '..', 'portal', 'src'));

  it('never hand data to the DOM as HTML', () => {
    expect(files.length).toBeGreaterThan(10);
    const offenders = files.filter((file) => /dangerouslySetInnerHTML|\.innerHTML|\.outerHTML|insertAdjacentHTML|document\.write/.test(readFileSync(file, 'utf8')));
    expect(offenders).toEqual([]);
  });

  it('import the typed client and the server for types only, so none of it ends up in the bundle', () => {
    const root = join(__dirname, '..', '..');
    const offenders = files.flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/^import (?!type )[^;]*from '(\.[^']*)';/gm)]
        .filter((match) => /^(client|api|services|prisma)\//.test(relative(root, resolve(dirname(file), match[1]!))))
        .map((match) => `${relative(root, file)}: ${match[0]}`),
    );
    expect(offenders).toEqual([]);
  });
});

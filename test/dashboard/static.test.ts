import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { registerDashboardStatic } from '../../api/http/dashboard-static';

const INDEX = `<!doctype html><html><head>
<meta name="temporal-ui" content="" />
<meta name="temporal-namespace" content="" />
<script type="module" src="/dashboard/assets/index-abc.js"></script></head><body><div id="root"></div></body></html>`;

interface Answer {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
  json(): any;
}

/** A real request (fastify's inject pulls in an ES module jest cannot load). */
async function get(app: FastifyInstance, url: string): Promise<Answer> {
  const response = await fetch(`http://127.0.0.1:${(app.server.address() as AddressInfo).port}${url}`);
  const body = await response.text();
  return { statusCode: response.status, headers: Object.fromEntries(response.headers), body, json: () => JSON.parse(body) };
}

describe('the dashboard served under /dashboard/', () => {
  let dist: string;
  let app: FastifyInstance;

  beforeAll(async () => {
    dist = mkdtempSync(join(tmpdir(), 'dashboard-dist-'));
    mkdirSync(join(dist, 'assets'));
    writeFileSync(join(dist, 'index.html'), INDEX);
    writeFileSync(join(dist, 'assets', 'index-abc.js'), 'console.log("app")');
    app = Fastify();
    registerDashboardStatic(app, { distDir: dist, temporalUiUrl: 'http://ui.example:8233/"><script>', temporalNamespace: 'billing' });
    await app.listen({ port: 0, host: '127.0.0.1' });
  });

  afterAll(async () => {
    await app.close();
    rmSync(dist, { recursive: true, force: true });
  });

  it.each(['/dashboard', '/dashboard/', '/dashboard/sign-in', '/dashboard/customers/cus_01?tab=x', '/dashboard/accept-invitation?token=t'])(
    'answers %s with the app page (SPA fallback), same-origin CSP and no referrer',
    async (url) => {
      const response = await get(app, url);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(response.headers['content-security-policy']).toContain("script-src 'self'");
      expect(response.headers['referrer-policy']).toBe('no-referrer');
      expect(response.body).toContain('<div id="root"></div>');
    },
  );

  it('fills the Temporal UI address and namespace into the page, escaped', async () => {
    const response = await get(app, '/dashboard/subscriptions/sub_1');
    expect(response.body).toContain('<meta name="temporal-ui" content="http://ui.example:8233/&quot;&gt;&lt;script&gt;" />');
    expect(response.body).toContain('<meta name="temporal-namespace" content="billing" />');
  });

  it('serves hashed assets with a long cache and answers a missing one 404, never with the page', async () => {
    const asset = await get(app, '/dashboard/assets/index-abc.js');
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['content-type']).toContain('javascript');
    expect(asset.headers['cache-control']).toContain('immutable');
    const missing = await get(app, '/dashboard/assets/gone-123.js');
    expect(missing.statusCode).toBe(404);
    expect(missing.body).not.toContain('<div id="root">');
  });

  it('never answers the session API paths with the app page', async () => {
    const response = await get(app, '/dashboard/api/session/me');
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('says how to build the dashboard when dashboard/dist is missing', async () => {
    const bare = Fastify();
    registerDashboardStatic(bare, { distDir: join(dist, 'absent') });
    await bare.listen({ port: 0, host: '127.0.0.1' });
    const response = await get(bare, '/dashboard/customers');
    expect(response.statusCode).toBe(404);
    expect(response.json().message).toContain('npm run dashboard:build');
    await bare.close();
  });
});

describe('the dashboard sources', () => {
  it('never hand data to the DOM as HTML', () => {
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else if (/\.tsx?$/.test(name)) files.push(path);
      }
    };
    walk(join(__dirname, '..', '..', 'dashboard', 'src'));
    expect(files.length).toBeGreaterThan(10);
    const offenders = files.filter((file) => /dangerouslySetInnerHTML|\.innerHTML|\.outerHTML|insertAdjacentHTML|document\.write/.test(readFileSync(file, 'utf8')));
    expect(offenders).toEqual([]);
  });
});

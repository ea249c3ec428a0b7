import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';

/**
 * `/docs`: Swagger UI (the `swagger-ui-dist` package) over `/openapi.json`, every file served by
 * the API itself from node_modules, so the page works offline and behind a firewall. Chosen over
 * Scalar's standalone bundle because it sends "Try it out" straight to this server (Scalar's
 * routes it through a proxy unless configured away) and loads no web fonts; "Authorize" takes
 * the API key secret and sends it as `Authorization: Bearer asec_…`.
 */

const SWAGGER_UI_DIR = path.dirname(require.resolve('swagger-ui-dist/package.json'));

/** The package's files the page loads, with their content types; nothing else is served. */
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'application/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

/**
 * Starts Swagger UI on the document as this server serves it, this server first among its
 * `servers` (the document names the configured PUBLIC_URL, which a local or test run may not
 * be on). Keys entered in "Authorize" stay in the page, never in storage.
 */
const INITIALIZER = `
fetch('/openapi.json')
  .then((response) => response.json())
  .then((spec) => {
    const here = window.location.origin;
    spec.servers = [{ url: here, description: 'This server' }, ...(spec.servers || []).filter((server) => server.url !== here)];
    window.ui = SwaggerUIBundle({
      spec,
      dom_id: '#reference',
      deepLinking: true,
      displayOperationId: false,
      docExpansion: 'list',
      defaultModelsExpandDepth: 0,
      showExtensions: true,
      tryItOutEnabled: false,
      persistAuthorization: false,
      validatorUrl: null,
    });
  });
`;

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Billing and Payments API reference</title>
<link rel="stylesheet" href="/docs/assets/swagger-ui.css">
<link rel="icon" type="image/png" href="/docs/assets/favicon-32x32.png">
</head>
<body>
<main id="reference"></main>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/assets/reference.js"></script>
</body>
</html>
`;

export function registerReferencePage(app: FastifyInstance): void {
  // Read once at start-up: a missing package fails the start, not the first reader.
  const files = new Map(Object.entries(ASSETS).map(([name, type]) => [name, { type, body: readFileSync(path.join(SWAGGER_UI_DIR, name)) }]));
  files.set('reference.js', { type: 'application/javascript; charset=utf-8', body: Buffer.from(INITIALIZER) });

  app.get('/docs', async (_request, reply) => reply.type('text/html; charset=utf-8').send(PAGE));
  app.get<{ Params: { name: string } }>('/docs/assets/:name', async (request, reply) => {
    const file = files.get(request.params.name);
    if (!file) return reply.callNotFound();
    return reply.type(file.type).header('cache-control', 'public, max-age=3600').send(file.body);
  });
}

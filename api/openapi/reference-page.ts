import type { OpenApiDocument } from './document';

type Schema = {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  enum?: unknown[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  const?: unknown;
  description?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  format?: string;
};

const escape = (text: string) => text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

function typeLabel(schema: Schema, components: Record<string, Schema>): string {
  if (schema.$ref) return typeLabel(components[schema.$ref.split('/').pop()!] ?? {}, components);
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (schema.enum) return schema.enum.map((v) => JSON.stringify(v)).join(' | ');
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants) return variants.map((v) => typeLabel(v, components)).join(' or ');
  if (schema.type === 'array' && schema.items) return `array of ${typeLabel(schema.items, components)}`;
  const bounds = [
    schema.minimum !== undefined ? `≥ ${schema.minimum}` : '',
    schema.maximum !== undefined ? `≤ ${schema.maximum}` : '',
    schema.maxLength !== undefined ? `max ${schema.maxLength} chars` : '',
    schema.format ?? '',
  ].filter(Boolean);
  return `${Array.isArray(schema.type) ? schema.type.join('|') : (schema.type ?? 'any')}${bounds.length ? ` (${bounds.join(', ')})` : ''}`;
}

function fieldRows(schema: Schema, components: Record<string, Schema>, prefix = '', depth = 0): string {
  const resolved = schema.$ref ? (components[schema.$ref.split('/').pop()!] ?? {}) : schema;
  if (!resolved.properties || depth > 4) return '';
  return Object.entries(resolved.properties)
    .map(([name, field]) => {
      const path = `${prefix}${name}`;
      const required = resolved.required?.includes(name) ? 'R' : '';
      const inner = field.$ref ? components[field.$ref.split('/').pop()!] : field;
      const nested = inner?.properties
        ? fieldRows(inner, components, `${path}.`, depth + 1)
        : inner?.items?.properties
          ? fieldRows(inner.items, components, `${path}[].`, depth + 1)
          : '';
      return `<tr><td><code>${escape(path)}</code></td><td>${escape(typeLabel(field, components))}</td><td>${required}</td><td>${escape(field.description ?? inner?.description ?? '')}</td></tr>${nested}`;
    })
    .join('');
}

/** A self-contained HTML reference rendered from the OpenAPI document: no CDN, works offline. */
export function referencePage(document: OpenApiDocument): string {
  const components = (document.components?.schemas ?? {}) as Record<string, Schema>;
  const operations = Object.entries(document.paths ?? {})
    .map(([path, item]) => {
      const op = (item as { post?: Record<string, unknown> }).post as
        | { summary?: string; description?: string; requestBody?: { content: Record<string, { schema: Schema }> }; responses: Record<string, { description?: string; content?: Record<string, { schema: Schema }> }> }
        | undefined;
      if (!op) return '';
      const request = op.requestBody?.content['application/json']?.schema;
      // 200 for most operations, 303 for those that redirect (api/http/see-other.ts).
      const [successStatus, success] = Object.entries(op.responses).find(([status]) => /^[23]/.test(status)) ?? ['200', undefined];
      const response = success?.content?.['application/json']?.schema;
      const errors = Object.entries(op.responses)
        .filter(([status]) => status !== successStatus)
        .map(([status, r]) => `<li><b>${status}</b> ${escape(r.description ?? '')}</li>`)
        .join('');
      return `<section id="${escape(path)}"><h2><span class="m">POST</span> ${escape(path)}</h2>
<p><b>${escape(op.summary ?? '')}</b></p><p>${escape(op.description ?? '')}</p>
<h3>Request</h3><table><tr><th>Field</th><th>Type</th><th>R</th><th>Notes</th></tr>${request ? fieldRows(request, components) : ''}</table>
<h3>Response ${successStatus}</h3><table><tr><th>Field</th><th>Type</th><th>R</th><th>Notes</th></tr>${response ? fieldRows(response, components) : ''}</table>
<h3>Errors</h3><ul>${errors}</ul></section>`;
    })
    .join('\n');
  const toc = Object.keys(document.paths ?? {})
    .map((path) => `<li><a href="#${escape(path)}">${escape(path)}</a></li>`)
    .join('');
  return `<!doctype html><html><head><meta charset="utf-8"><title>${escape(document.info.title)} reference</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;color:#1d2330}
table{border-collapse:collapse;width:100%;margin:.5em 0 1em}td,th{border:1px solid #d6dae3;padding:4px 8px;text-align:left;vertical-align:top}
th{background:#f3f5f9}code{font-size:13px}.m{background:#2b6cb0;color:#fff;border-radius:4px;padding:1px 6px;font-size:13px}
section{border-top:1px solid #d6dae3;margin-top:2em}</style></head><body>
<h1>${escape(document.info.title)} <small>v${escape(document.info.version)}</small></h1>
<p>${escape(document.info.description ?? '')}</p><p>Machine-readable: <a href="/openapi.json">/openapi.json</a> (OpenAPI 3.1).</p>
<ul>${toc}</ul>${operations}</body></html>`;
}

import type { FastifyRequest } from 'fastify';
import type { ClientInfo } from '../../services/dashboard/actor';
import type { SessionCredentials } from './session-auth';

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * The caller's address and user agent. `request.ip` is the socket's peer unless TRUST_PROXY
 * names the proxies whose `X-Forwarded-For` is believed (api/http/trust-proxy.ts).
 */
export function clientInfoOf(request: FastifyRequest): ClientInfo {
  return { ip: request.ip, userAgent: header(request, 'user-agent') };
}

export function sessionCredentialsOf(request: FastifyRequest): SessionCredentials {
  return {
    cookie: header(request, 'cookie'),
    csrfToken: header(request, 'x-csrf-token'),
    fetchSite: header(request, 'sec-fetch-site'),
    overTls: cameOverTls(request),
  };
}

/** Over TLS: the socket's own, or `X-Forwarded-Proto: https` from a trusted proxy (TRUST_PROXY). */
export function cameOverTls(request: FastifyRequest): boolean {
  return request.protocol === 'https';
}

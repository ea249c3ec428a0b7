/**
 * TRUST_PROXY (docs/configuration.md): which proxies' `X-Forwarded-For` / `X-Forwarded-Proto`
 * are believed. Unset or `false`: none, the socket is the truth (a client could otherwise claim
 * any address to dodge the sign-in throttle, or claim TLS). `true`: every hop; anything else: a
 * comma-separated list of the proxies' addresses or CIDR ranges, as Fastify's `trustProxy` takes
 * them (`127.0.0.1,10.0.0.0/8`).
 */
export function trustProxySetting(value: string | undefined): boolean | string {
  const text = value?.trim();
  if (!text || text === 'false') return false;
  if (text === 'true') return true;
  return text;
}

import { addressScope, type AddressScope } from './ip-address-scope';

/**
 * Where webhook deliveries may go (docs/webhooks.md, "Where deliveries may go"): public
 * addresses only, so a merchant cannot make the worker reach the operator's own network;
 * loopback too when the operator opts in for local development (WEBHOOK_ALLOW_LOOPBACK).
 */
export function destinationAllowed(address: string, allowLoopback: boolean): boolean {
  const scope = addressScope(address);
  return scope === 'PUBLIC' || (scope === 'LOOPBACK' && allowLoopback);
}

/**
 * The scope of a URL host (as WHATWG URL parsing gives it: IPv6 in brackets, decimal and hex
 * IPv4 forms already dotted) when it names an address without DNS: an IP literal, or `localhost`
 * and its subdomains (RFC 6761). Undefined for other names, which are checked when resolved.
 */
export function literalHostScope(hostname: string): AddressScope | undefined {
  const host = unbracketed(hostname).toLowerCase().replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return 'LOOPBACK';
  return addressScope(host);
}

/** A URL host as the resolver takes it: an IPv6 literal without its brackets. */
export function unbracketed(hostname: string): string {
  return hostname.replace(/^\[(.*)\]$/, '$1');
}

const SCOPE_WORDS: Record<Exclude<AddressScope, 'PUBLIC'>, string> = {
  LOOPBACK: 'a loopback address',
  PRIVATE: 'a private network address',
  LINK_LOCAL: 'a link-local address',
  SHARED: 'a carrier-grade NAT address',
  UNIQUE_LOCAL: 'a unique local IPv6 address',
  UNSPECIFIED: 'the unspecified address',
  MULTICAST: 'a multicast address',
  RESERVED: 'a reserved address',
};

/** Why a URL host may not receive deliveries, or undefined when it may (as far as can be told before DNS). */
export function hostRefusal(hostname: string, allowLoopback: boolean): string | undefined {
  const scope = literalHostScope(hostname);
  if (scope === undefined || scope === 'PUBLIC' || (scope === 'LOOPBACK' && allowLoopback)) return undefined;
  const loopbackNote = scope === 'LOOPBACK' ? ' Loopback receivers are accepted only where the operator allows them for local development.' : '';
  return `Webhook URLs must lead to a public address; ${hostname} is ${SCOPE_WORDS[scope]}.${loopbackNote}`;
}

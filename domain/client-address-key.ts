import ipaddr from 'ipaddr.js';

/**
 * The key a client's address is throttled under: an IPv4 address as it is (an IPv4-mapped IPv6
 * address as the IPv4 it carries), an IPv6 address as its /64. One subscriber gets at least a /64
 * and picks any address inside it at will, so counting per address would let one client rotate
 * past every limit. Anything unparsable is its own key.
 */
export function clientAddressKey(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const network = new ipaddr.IPv6([...(parsed as ipaddr.IPv6).parts.slice(0, 4), 0, 0, 0, 0]);
  return `${network.toString()}/64`;
}

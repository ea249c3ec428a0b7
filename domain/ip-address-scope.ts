import { isIP } from 'node:net';

/**
 * Where an IP address leads, after the IANA special-purpose registries (RFC 6890 and its
 * updates): PUBLIC for globally reachable unicast, else the reason it is not.
 */
export type AddressScope =
  | 'PUBLIC'
  | 'LOOPBACK'
  /** RFC 1918, and IPv6 site-local (fec0::/10, deprecated but still routed by some stacks). */
  | 'PRIVATE'
  /** 169.254/16 (cloud metadata services live there) and fe80::/10. */
  | 'LINK_LOCAL'
  /** 100.64/10, carrier-grade NAT (RFC 6598). */
  | 'SHARED'
  /** fc00::/7 (RFC 4193). */
  | 'UNIQUE_LOCAL'
  /** 0.0.0.0/8 and ::, which a connect() on Linux sends to the local host. */
  | 'UNSPECIFIED'
  | 'MULTICAST'
  /** Documentation, benchmarking, protocol assignments, the future-use block, broadcast. */
  | 'RESERVED';

type Range = readonly [first: bigint, prefixLength: number, scope: AddressScope];

const v4 = (dotted: string, prefixLength: number, scope: AddressScope): Range => [ipv4Value(dotted), prefixLength, scope];
const v6 = (text: string, prefixLength: number, scope: AddressScope): Range => [ipv6Value(text), prefixLength, scope];

/** The ranges of one family do not overlap; an address in none is PUBLIC (IPv6: see ipv6Scope). */
const IPV4_RANGES: readonly Range[] = [
  v4('0.0.0.0', 8, 'UNSPECIFIED'),
  v4('10.0.0.0', 8, 'PRIVATE'),
  v4('100.64.0.0', 10, 'SHARED'),
  v4('127.0.0.0', 8, 'LOOPBACK'),
  v4('169.254.0.0', 16, 'LINK_LOCAL'),
  v4('172.16.0.0', 12, 'PRIVATE'),
  v4('192.0.0.0', 24, 'RESERVED'),
  v4('192.0.2.0', 24, 'RESERVED'),
  v4('192.88.99.0', 24, 'RESERVED'),
  v4('192.168.0.0', 16, 'PRIVATE'),
  v4('198.18.0.0', 15, 'RESERVED'),
  v4('198.51.100.0', 24, 'RESERVED'),
  v4('203.0.113.0', 24, 'RESERVED'),
  v4('224.0.0.0', 4, 'MULTICAST'),
  v4('240.0.0.0', 4, 'RESERVED'),
];

const IPV6_RANGES: readonly Range[] = [
  v6('::', 128, 'UNSPECIFIED'),
  v6('::1', 128, 'LOOPBACK'),
  v6('64:ff9b:1::', 48, 'RESERVED'),
  v6('100::', 64, 'RESERVED'),
  v6('2001::', 23, 'RESERVED'),
  v6('2001:db8::', 32, 'RESERVED'),
  v6('3fff::', 20, 'RESERVED'),
  v6('fc00::', 7, 'UNIQUE_LOCAL'),
  v6('fe80::', 10, 'LINK_LOCAL'),
  v6('fec0::', 10, 'PRIVATE'),
  v6('ff00::', 8, 'MULTICAST'),
];

/**
 * IPv6 ranges that carry an IPv4 address in their low 32 bits (IPv4-mapped, NAT64) or in bits
 * 16–47 (6to4): they lead where that IPv4 address leads, so `::ffff:127.0.0.1` is loopback.
 */
const IPV4_MAPPED = ipv6Value('::ffff:0:0');
const NAT64 = ipv6Value('64:ff9b::');
const SIX_TO_FOUR = ipv6Value('2002::');

/**
 * The scope of an IPv4 or IPv6 address in text form (a zone id such as `%eth0` is ignored;
 * brackets are not accepted), or undefined when the text is not an IP address.
 */
export function addressScope(address: string): AddressScope | undefined {
  const bare = address.replace(/%.*$/, '');
  switch (isIP(bare)) {
    case 4:
      return scopeIn(IPV4_RANGES, ipv4Value(bare), 32);
    case 6:
      return ipv6Scope(ipv6Value(bare));
    default:
      return undefined;
  }
}

function ipv6Scope(value: bigint): AddressScope {
  const low32 = value & 0xffff_ffffn;
  if (within(value, IPV4_MAPPED, 96, 128) || within(value, NAT64, 96, 128)) return scopeIn(IPV4_RANGES, low32, 32);
  if (within(value, SIX_TO_FOUR, 16, 128)) return scopeIn(IPV4_RANGES, (value >> 80n) & 0xffff_ffffn, 32);
  const listed = scopeIn(IPV6_RANGES, value, 128);
  if (listed !== 'PUBLIC') return listed;
  // Global unicast is 2000::/3; everything else unlisted (the rest of ::/8, 4000::/2, …) is unassigned.
  return within(value, ipv6Value('2000::'), 3, 128) ? 'PUBLIC' : 'RESERVED';
}

function scopeIn(ranges: readonly Range[], value: bigint, bits: number): AddressScope {
  const range = ranges.find(([first, prefixLength]) => within(value, first, prefixLength, bits));
  return range ? range[2] : 'PUBLIC';
}

function within(value: bigint, first: bigint, prefixLength: number, bits: number): boolean {
  const hostBits = BigInt(bits - prefixLength);
  return value >> hostBits === first >> hostBits;
}

function ipv4Value(dotted: string): bigint {
  return dotted.split('.').reduce((value, part) => (value << 8n) | BigInt(Number(part)), 0n);
}

/** The 128-bit value of a valid IPv6 address: `::` expanded, a dotted IPv4 tail as two groups. */
function ipv6Value(text: string): bigint {
  let groups = text;
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (tail) {
    const v4value = ipv4Value(tail[1]!);
    groups = `${text.slice(0, tail.index)}${(v4value >> 16n).toString(16)}:${(v4value & 0xffffn).toString(16)}`;
  }
  const [head, rest] = groups.split('::') as [string, string | undefined];
  const headGroups = head ? head.split(':') : [];
  const restGroups = rest ? rest.split(':') : [];
  const zeros = rest === undefined ? [] : Array<string>(8 - headGroups.length - restGroups.length).fill('0');
  return [...headGroups, ...zeros, ...restGroups].reduce((value, group) => (value << 16n) | BigInt(parseInt(group, 16)), 0n);
}

import { addressScope, type AddressScope } from '../../domain/ip-address-scope';
import { destinationAllowed, hostRefusal, literalHostScope } from '../../domain/webhook-destination';

/** The host of a URL as the schema and the delivery see it: WHATWG-parsed. */
const hostOf = (url: string) => new URL(url).hostname;

describe('addressScope', () => {
  const cases: [string, AddressScope][] = [
    // IPv4: each range at its edges, and the public addresses just outside them.
    ['0.0.0.0', 'UNSPECIFIED'],
    ['0.255.255.255', 'UNSPECIFIED'],
    ['1.0.0.0', 'PUBLIC'],
    ['9.255.255.255', 'PUBLIC'],
    ['10.0.0.0', 'PRIVATE'],
    ['10.255.255.255', 'PRIVATE'],
    ['11.0.0.0', 'PUBLIC'],
    ['100.63.255.255', 'PUBLIC'],
    ['100.64.0.0', 'SHARED'],
    ['100.127.255.255', 'SHARED'],
    ['100.128.0.0', 'PUBLIC'],
    ['126.255.255.255', 'PUBLIC'],
    ['127.0.0.1', 'LOOPBACK'],
    ['127.255.255.254', 'LOOPBACK'],
    ['128.0.0.0', 'PUBLIC'],
    ['169.253.255.255', 'PUBLIC'],
    ['169.254.0.0', 'LINK_LOCAL'],
    ['169.254.169.254', 'LINK_LOCAL'],
    ['169.254.255.255', 'LINK_LOCAL'],
    ['169.255.0.0', 'PUBLIC'],
    ['172.15.255.255', 'PUBLIC'],
    ['172.16.0.0', 'PRIVATE'],
    ['172.31.255.255', 'PRIVATE'],
    ['172.32.0.0', 'PUBLIC'],
    ['192.0.0.170', 'RESERVED'],
    ['192.0.2.1', 'RESERVED'],
    ['192.88.99.1', 'RESERVED'],
    ['192.167.255.255', 'PUBLIC'],
    ['192.168.0.0', 'PRIVATE'],
    ['192.168.255.255', 'PRIVATE'],
    ['192.169.0.0', 'PUBLIC'],
    ['198.17.255.255', 'PUBLIC'],
    ['198.18.0.0', 'RESERVED'],
    ['198.19.255.255', 'RESERVED'],
    ['198.20.0.0', 'PUBLIC'],
    ['198.51.100.7', 'RESERVED'],
    ['203.0.113.7', 'RESERVED'],
    ['8.8.8.8', 'PUBLIC'],
    ['93.184.216.34', 'PUBLIC'],
    ['223.255.255.255', 'PUBLIC'],
    ['224.0.0.1', 'MULTICAST'],
    ['239.255.255.255', 'MULTICAST'],
    ['240.0.0.1', 'RESERVED'],
    ['255.255.255.255', 'RESERVED'],
    // IPv6.
    ['::', 'UNSPECIFIED'],
    ['0:0:0:0:0:0:0:0', 'UNSPECIFIED'],
    ['::1', 'LOOPBACK'],
    ['0:0:0:0:0:0:0:1', 'LOOPBACK'],
    ['::2', 'RESERVED'],
    ['fc00::', 'UNIQUE_LOCAL'],
    ['fd12:3456:789a::1', 'UNIQUE_LOCAL'],
    ['fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'UNIQUE_LOCAL'],
    ['fbff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'RESERVED'],
    ['fe80::', 'LINK_LOCAL'],
    ['fe80::1%eth0', 'LINK_LOCAL'],
    ['febf:ffff::1', 'LINK_LOCAL'],
    ['fec0::1', 'PRIVATE'],
    ['ff02::1', 'MULTICAST'],
    ['FF05::1:3', 'MULTICAST'],
    ['2001:db8::1', 'RESERVED'],
    ['2001::1', 'RESERVED'],
    ['2001:4860:4860::8888', 'PUBLIC'],
    ['2606:4700:4700::1111', 'PUBLIC'],
    ['2a00:1450:4001:80b::200e', 'PUBLIC'],
    ['3fff::1', 'RESERVED'],
    ['4000::1', 'RESERVED'],
    ['100::1', 'RESERVED'],
    // IPv6 carrying an IPv4 address leads where that address does.
    ['::ffff:127.0.0.1', 'LOOPBACK'],
    ['::ffff:7f00:1', 'LOOPBACK'],
    ['::FFFF:169.254.169.254', 'LINK_LOCAL'],
    ['::ffff:a00:1', 'PRIVATE'],
    ['::ffff:0.0.0.0', 'UNSPECIFIED'],
    ['::ffff:8.8.8.8', 'PUBLIC'],
    ['0:0:0:0:0:ffff:c0a8:101', 'PRIVATE'],
    ['64:ff9b::10.0.0.1', 'PRIVATE'],
    ['64:ff9b::808:808', 'PUBLIC'],
    ['64:ff9b:1::1', 'RESERVED'],
    ['2002:7f00:1::', 'LOOPBACK'],
    ['2002:a9fe:a9fe::1', 'LINK_LOCAL'],
    ['2002:808:808::1', 'PUBLIC'],
    ['::127.0.0.1', 'RESERVED'],
  ];

  it.each(cases)('%s is %s', (address, scope) => {
    expect(addressScope(address)).toBe(scope);
  });

  it('is undefined for what is not an IP address', () => {
    for (const text of ['localhost', 'hooks.example.com', '', '1.2.3', '256.1.1.1', '[::1]', '::g', '2130706433', '0x7f.1']) {
      expect(addressScope(text)).toBeUndefined();
    }
  });
});

describe('literalHostScope of URL hosts', () => {
  it('sees the numeric IPv4 forms WHATWG URL parsing turns dotted', () => {
    expect(hostOf('http://2130706433/')).toBe('127.0.0.1');
    expect(literalHostScope(hostOf('http://2130706433/'))).toBe('LOOPBACK');
    expect(literalHostScope(hostOf('http://0x7f.1/'))).toBe('LOOPBACK');
    expect(literalHostScope(hostOf('http://0177.0.0.1/'))).toBe('LOOPBACK');
    expect(literalHostScope(hostOf('http://0/'))).toBe('UNSPECIFIED');
    expect(literalHostScope(hostOf('http://0xa9fea9fe/'))).toBe('LINK_LOCAL');
    expect(literalHostScope(hostOf('http://167772161/'))).toBe('PRIVATE');
  });

  it('takes IPv6 in brackets, compressed by the parser', () => {
    expect(hostOf('http://[::ffff:127.0.0.1]/')).toBe('[::ffff:7f00:1]');
    expect(literalHostScope(hostOf('http://[::ffff:127.0.0.1]/'))).toBe('LOOPBACK');
    expect(literalHostScope(hostOf('http://[0:0:0:0:0:0:0:0]/'))).toBe('UNSPECIFIED');
    expect(literalHostScope(hostOf('https://[fd00::1]:8443/'))).toBe('UNIQUE_LOCAL');
    expect(literalHostScope(hostOf('https://[2606:4700:4700::1111]/'))).toBe('PUBLIC');
  });

  it('takes localhost and its subdomains as loopback (RFC 6761), other names as unknown until resolved', () => {
    expect(literalHostScope('localhost')).toBe('LOOPBACK');
    expect(literalHostScope('localhost.')).toBe('LOOPBACK');
    expect(literalHostScope(hostOf('http://LocalHost:9/'))).toBe('LOOPBACK');
    expect(literalHostScope('api.localhost')).toBe('LOOPBACK');
    expect(literalHostScope('notlocalhost')).toBeUndefined();
    expect(literalHostScope('hooks.example.com')).toBeUndefined();
  });
});

describe('where deliveries may go', () => {
  it('public addresses; loopback only when allowed; never the other internal ones', () => {
    expect(destinationAllowed('93.184.216.34', false)).toBe(true);
    expect(destinationAllowed('2606:4700:4700::1111', false)).toBe(true);
    for (const loopback of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) {
      expect(destinationAllowed(loopback, false)).toBe(false);
      expect(destinationAllowed(loopback, true)).toBe(true);
    }
    for (const internal of ['10.1.2.3', '169.254.169.254', '100.64.0.1', 'fd00::1', 'fe80::1', '0.0.0.0', '::', '224.0.0.1']) {
      expect(destinationAllowed(internal, true)).toBe(false);
    }
    expect(destinationAllowed('not-an-address', true)).toBe(false);
  });

  it('explains a refused host, and names the opt-in for loopback', () => {
    expect(hostRefusal('10.0.0.1', true)).toBe('Webhook URLs must lead to a public address; 10.0.0.1 is a private network address.');
    expect(hostRefusal('169.254.169.254', true)).toMatch(/link-local/);
    expect(hostRefusal('127.0.0.1', false)).toMatch(/is a loopback address\. Loopback receivers are accepted only where the operator allows them/);
    expect(hostRefusal('127.0.0.1', true)).toBeUndefined();
    expect(hostRefusal('hooks.example.com', false)).toBeUndefined();
    expect(hostRefusal('8.8.8.8', false)).toBeUndefined();
  });
});

import { clientAddressKey } from '../../domain/client-address-key';

describe('clientAddressKey', () => {
  it('keeps an IPv4 address, unwraps an IPv4-mapped one, and reduces IPv6 to its /64', () => {
    expect(clientAddressKey('198.51.100.7')).toBe('198.51.100.7');
    expect(clientAddressKey('::ffff:198.51.100.7')).toBe('198.51.100.7');
    expect(clientAddressKey('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(clientAddressKey('2001:DB8:1:2:ffff:ffff:ffff:fffe')).toBe('2001:db8:1:2::/64');
    expect(clientAddressKey('2001:0db8:0001:0002:0000:0000:0000:0009')).toBe('2001:db8:1:2::/64');
    expect(clientAddressKey('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
  });

  it('keeps what is not an address as it is', () => {
    expect(clientAddressKey('')).toBe('');
    expect(clientAddressKey('not an address')).toBe('not an address');
  });
});

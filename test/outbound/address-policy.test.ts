import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { classifyAddress, refusedRange } from '../../lib/outbound/address-policy.ts';

const ipv4 = (n: number) => [n >>> 24, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff].join('.');
const hex16 = (n: number) => n.toString(16);
/** The IPv4-mapped address written in hex words, as the URL parser prints it. */
const mappedHex = (n: number) => `::ffff:${hex16(n >>> 16)}:${hex16(n & 0xffff)}`;
/** Any address inside network/prefix. */
const inSubnet = (network: string, prefix: number) => {
  const base = network.split('.').reduce((acc, part) => acc * 256 + Number(part), 0);
  return fc.integer({ min: 0, max: 2 ** (32 - prefix) - 1 }).map((offset) => base + offset);
};

describe('classifyAddress', () => {
  it.each([
    ['8.8.8.8', 'public'],
    ['1.1.1.1', 'public'],
    ['172.32.0.1', 'public'], // just past 172.16/12
    ['100.128.0.1', 'public'], // just past 100.64/10
    ['169.253.255.255', 'public'],
    ['2606:4700:4700::1111', 'public'],
    ['127.0.0.1', 'private'],
    ['127.255.255.254', 'private'],
    ['10.0.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'private'],
    ['0.0.0.0', 'private'],
    ['224.0.0.251', 'private'],
    ['255.255.255.255', 'private'],
    ['::1', 'private'],
    ['::', 'private'],
    ['fc00::1', 'private'],
    ['fd12:3456:789a::1', 'private'],
    ['ff02::1', 'private'],
    ['::ffff:127.0.0.1', 'private'],
    ['::ffff:7f00:1', 'private'],
    ['::127.0.0.1', 'private'], // IPv4-compatible
    ['::ffff:0:10.0.0.1', 'private'], // SIIT
    ['64:ff9b::10.0.0.1', 'private'], // NAT64
    ['::ffff:8.8.8.8', 'public'],
    ['169.254.169.254', 'metadata'],
    ['169.254.170.2', 'metadata'], // ECS task metadata
    ['fd00:ec2::254', 'metadata'],
    ['fe80::1', 'metadata'],
    ['fe80::1%eth0', 'metadata'],
    ['febf:ffff::1', 'metadata'],
    ['::ffff:169.254.169.254', 'metadata'],
    ['::ffff:a9fe:a9fe', 'metadata'],
    ['64:ff9b::a9fe:a9fe', 'metadata'],
  ])('%s is %s', (address, expected) => {
    expect(classifyAddress(address).class).toBe(expected);
  });

  it('refuses metadata addresses even when private networks are allowed', () => {
    expect(refusedRange('169.254.169.254', true)).toMatch(/metadata/);
    expect(refusedRange('fd00:ec2::254', true)).toMatch(/metadata/);
    expect(refusedRange('10.0.0.1', true)).toBeUndefined();
    expect(refusedRange('10.0.0.1', false)).toBe('a private network address');
    expect(refusedRange('8.8.8.8', false)).toBeUndefined();
  });

  it('throws on text that is not an IP address', () => {
    expect(() => classifyAddress('localhost')).toThrow(TypeError);
    expect(() => classifyAddress('2130706433')).toThrow(TypeError);
  });
});

describe('classifyAddress properties', () => {
  it.each([
    ['10.0.0.0', 8, 'private'],
    ['172.16.0.0', 12, 'private'],
    ['192.168.0.0', 16, 'private'],
    ['127.0.0.0', 8, 'private'],
    ['100.64.0.0', 10, 'private'],
    ['0.0.0.0', 8, 'private'],
    ['224.0.0.0', 4, 'private'],
    ['169.254.0.0', 16, 'metadata'],
  ] as const)('every address in %s/%i is %s, in IPv4 and every IPv6 form that reaches it', (network, prefix, expected) => {
    fc.assert(
      fc.property(inSubnet(network, prefix), (n) => {
        for (const form of [ipv4(n), `::ffff:${ipv4(n)}`, mappedHex(n), `64:ff9b::${ipv4(n)}`, `::ffff:0:${ipv4(n)}`])
          expect(classifyAddress(form).class, form).toBe(expected);
      }),
    );
  });

  it('an IPv4-mapped address classifies like its IPv4 address', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 32 - 1 }), (n) => {
        const expected = classifyAddress(ipv4(n));
        expect(classifyAddress(`::ffff:${ipv4(n)}`)).toEqual(expected);
        expect(classifyAddress(mappedHex(n))).toEqual(expected);
      }),
    );
  });

  it('every address in fe80::/10 is metadata', () => {
    const word = fc.integer({ min: 0, max: 0xffff }).map(hex16);
    fc.assert(
      fc.property(fc.integer({ min: 0xfe80, max: 0xfebf }), fc.array(word, { minLength: 7, maxLength: 7 }), (first, rest) => {
        expect(classifyAddress([hex16(first), ...rest].join(':')).class).toBe('metadata');
      }),
    );
  });

  it('any IPv6 spelling classifies like its canonical form, without throwing', () => {
    fc.assert(
      fc.property(fc.ipV6(), (address) => {
        const canonical = new URL(`http://[${address}]/`).hostname.slice(1, -1);
        expect(classifyAddress(address)).toEqual(classifyAddress(canonical));
      }),
    );
  });
});

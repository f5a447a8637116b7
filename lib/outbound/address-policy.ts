import type { LookupAddress, LookupAllOptions, LookupOptions } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/**
 * Which addresses an outbound call may connect to.
 *
 * - `metadata`: link-local ranges and the cloud metadata addresses. Never
 *   reachable, whatever the options: on Lambda/EC2/ECS they hand out the
 *   function's own credentials.
 * - `private`: loopback, private, shared (carrier-grade NAT), unspecified,
 *   multicast/broadcast and reserved ranges. Reachable only when private
 *   networks are explicitly allowed (local development, tests).
 * - `public`: everything else.
 */
export type AddressClass = 'public' | 'private' | 'metadata';

export interface AddressVerdict {
  class: AddressClass;
  /** Plain name of the range, for error messages ("a loopback address"). */
  range?: string;
}

type Rule = readonly [network: string, prefix: number, range: string];

const METADATA_V4: Rule[] = [['169.254.0.0', 16, 'a link-local (cloud metadata) address']];
const PRIVATE_V4: Rule[] = [
  ['127.0.0.0', 8, 'a loopback address'],
  ['10.0.0.0', 8, 'a private network address'],
  ['172.16.0.0', 12, 'a private network address'],
  ['192.168.0.0', 16, 'a private network address'],
  ['100.64.0.0', 10, 'a carrier-grade NAT address'],
  ['0.0.0.0', 8, 'an unspecified address'],
  ['224.0.0.0', 4, 'a multicast address'],
  // 240/4 is reserved and holds the broadcast address 255.255.255.255.
  ['240.0.0.0', 4, 'a reserved or broadcast address'],
  // Special-purpose blocks that are never a provider on the internet.
  ['192.0.0.0', 24, 'a reserved address'],
  ['198.18.0.0', 15, 'a reserved address'],
];
const METADATA_V6: Rule[] = [
  ['fe80::', 10, 'a link-local (cloud metadata) address'],
  // EC2's IPv6 metadata endpoint lies inside fc00::/7, but unlike the rest of it is never allowed.
  ['fd00:ec2::254', 128, 'a cloud metadata address'],
];
const PRIVATE_V6: Rule[] = [
  ['::1', 128, 'a loopback address'],
  ['::', 128, 'an unspecified address'],
  ['fc00::', 7, 'a private network address'],
  ['fec0::', 10, 'a private network address'], // deprecated site-local, still routed inside some networks
  ['ff00::', 8, 'a multicast address'],
];

/** One BlockList per rule, so a match can name its range in the error message. */
function compile(rules: Rule[], type: 'ipv4' | 'ipv6'): Array<{ list: BlockList; range: string }> {
  return rules.map(([network, prefix, range]) => {
    const list = new BlockList();
    list.addSubnet(network, prefix, type);
    return { list, range };
  });
}

const V4 = { metadata: compile(METADATA_V4, 'ipv4'), private: compile(PRIVATE_V4, 'ipv4') };
const V6 = { metadata: compile(METADATA_V6, 'ipv6'), private: compile(PRIVATE_V6, 'ipv6') };

function match(table: typeof V4, address: string, type: 'ipv4' | 'ipv6'): AddressVerdict {
  for (const cls of ['metadata', 'private'] as const) {
    const hit = table[cls].find(({ list }) => list.check(address, type));
    if (hit) return { class: cls, range: hit.range };
  }
  return { class: 'public' };
}

/** The 8 16-bit words of a valid IPv6 address (the WHATWG URL parser canonicalises dotted tails to hex). */
function ipv6Words(address: string): number[] {
  const canonical = new URL(`http://[${address}]/`).hostname.slice(1, -1);
  const [head = '', tail] = canonical.split('::');
  const headWords = head ? head.split(':') : [];
  const tailWords = tail ? tail.split(':') : [];
  const fill = tail === undefined ? [] : Array<string>(8 - headWords.length - tailWords.length).fill('0');
  return [...headWords, ...fill, ...tailWords].map((word) => parseInt(word, 16));
}

/**
 * The IPv4 address an IPv6 address stands for, if it is one of the forms that
 * reach an IPv4 host: IPv4-mapped (::ffff:a.b.c.d), IPv4-compatible (::a.b.c.d),
 * SIIT-translated (::ffff:0:a.b.c.d) or NAT64 (64:ff9b::a.b.c.d). Such an
 * address must be judged as the IPv4 address it reaches.
 */
function embeddedIpv4(words: number[]): string | undefined {
  const [w0, w1, w2, w3, w4, w5, w6 = 0, w7 = 0] = words;
  const zeroTo3 = w0 === 0 && w1 === 0 && w2 === 0 && w3 === 0;
  const embeds =
    (zeroTo3 && w4 === 0 && (w5 === 0xffff || w5 === 0)) ||
    (zeroTo3 && w4 === 0xffff && w5 === 0) ||
    (w0 === 0x64 && w1 === 0xff9b && w2 === 0 && w3 === 0 && w4 === 0 && w5 === 0);
  return embeds ? `${w6 >> 8}.${w6 & 0xff}.${w7 >> 8}.${w7 & 0xff}` : undefined;
}

/** Classifies an IP address (IPv6 may carry a %zone). Throws on a non-IP string. */
export function classifyAddress(address: string): AddressVerdict {
  const bare = address.replace(/%.*$/s, '');
  const version = isIP(bare);
  if (version === 4) return match(V4, bare, 'ipv4');
  if (version !== 6) throw new TypeError(`not an IP address: ${address}`);
  // ::1 and :: are in the IPv4-compatible block but are IPv6's own loopback and unspecified address.
  const own = match(V6, bare, 'ipv6');
  if (own.class !== 'public') return own;
  const v4 = embeddedIpv4(ipv6Words(bare));
  return v4 === undefined ? own : match(V4, v4, 'ipv4');
}

/** The range that forbids connecting to `address` ("a loopback address"), or undefined when allowed. */
export function refusedRange(address: string, allowPrivateNetworks: boolean): string | undefined {
  const verdict = classifyAddress(address);
  if (verdict.class === 'public' || (verdict.class === 'private' && allowPrivateNetworks)) return undefined;
  return verdict.range;
}

/** Names of cloud metadata services (GCP, AWS's EC2 names, the bare name some resolvers complete): refused by name, before any lookup. */
const METADATA_NAMES: ReadonlySet<string> = new Set(['metadata', 'metadata.google.internal', 'metadata.goog', 'instance-data', 'instance-data.ec2.internal']);

/**
 * Why a URL's host may never be called, whatever the options, as a subject
 * and range for the refusal message: a metadata or link-local address written
 * as an IP (the URL parser has already turned 0xA9FEA9FE, 2852039166 or
 * [::ffff:a9fe:a9fe] into their plain form), or a metadata service's name.
 */
export function metadataHost(hostname: string): { subject: string; range: string } | undefined {
  const host = hostname
    .replace(/^\[(.*)\]$/, '$1')
    .toLowerCase()
    .replace(/\.$/, '');
  if (isIP(host)) {
    const verdict = classifyAddress(host);
    return verdict.class === 'metadata' ? { subject: `${host} is`, range: verdict.range! } : undefined;
  }
  return METADATA_NAMES.has(host) ? { subject: `${host} is`, range: 'the name of a cloud metadata service' } : undefined;
}

/** The refusal of a call to an address that may not be called, as every caller words it. */
export const blockedAddressMessage = (shown: string, subject: string, range: string) =>
  `Refused to call ${shown}: ${subject} ${range}; outbound calls may only go to public internet addresses.`;

/** dns.lookup as called with `{ all: true }`; tests inject their own resolver of this shape. */
export type LookupAll = (
  hostname: string,
  options: LookupAllOptions,
  callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

/**
 * A socket `lookup` that resolves, then refuses if ANY resolved address is
 * blocked. The socket connects only to addresses returned here, so the address
 * checked is the address used: no window for DNS rebinding between a check and
 * the connection.
 */
export function guardedLookup(
  resolve: LookupAll,
  allowPrivateNetworks: boolean,
  refuse: (hostname: string, address: string, range: string) => Error,
): LookupFunction {
  return (hostname: string, options: LookupOptions, callback) => {
    resolve(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      if (addresses.length === 0) return callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), []);
      for (const { address } of addresses) {
        let range: string | undefined;
        try {
          range = refusedRange(address, allowPrivateNetworks);
        } catch {
          range = 'not an IP address'; // a resolver that answers garbage is refused, not trusted
        }
        if (range !== undefined) return callback(refuse(hostname, address.replace(/%.*$/s, ''), range), []);
      }
      // net asks for all addresses when it races IPv4/IPv6 (autoSelectFamily), otherwise for one.
      if (options.all) return callback(null, addresses);
      const [first] = addresses as [LookupAddress];
      callback(null, first.address, first.family);
    });
  };
}

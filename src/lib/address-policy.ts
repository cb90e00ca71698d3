// Which network addresses an outgoing request from the server may reach. Server-side fetches of user-given URLs
// (media downloads) must not be turned against the server's own network: loopback, private ranges, link-local (cloud
// metadata at 169.254.169.254), multicast, carrier-grade NAT, unique-local IPv6, and IPv6 forms that embed one of them.
import ipaddr from 'ipaddr.js';

/** Decides one address: null when it may be reached, otherwise why not (a short phrase such as "loopback"). */
export type AddressPolicy = (address: string) => string | null;

/** Readable names of ipaddr.js's special ranges. */
const RANGE_NAMES: Record<string, string> = {
  unspecified: 'unspecified',
  broadcast: 'broadcast',
  multicast: 'multicast',
  linkLocal: 'link-local',
  loopback: 'loopback',
  carrierGradeNat: 'carrier-grade NAT',
  private: 'private network',
  reserved: 'reserved',
  as112: 'reserved (AS112)',
  amt: 'reserved (AMT)',
  uniqueLocal: 'unique-local (private) IPv6',
  deprecatedSiteLocal: 'site-local IPv6',
  discard: 'discard-only IPv6',
  rfc6145: 'IPv4-translated IPv6',
  teredo: 'Teredo tunnel',
  benchmarking: 'benchmarking',
  as112v6: 'reserved (AS112)',
  deprecatedOrchid: 'reserved (ORCHID)',
  orchid2: 'reserved (ORCHIDv2)',
  droneRemoteIdProtocolEntityTags: 'reserved (DRIP)',
  segmentRouting: 'segment-routing IPv6',
};

const v6Cidr = (cidr: string) => ipaddr.parseCIDR(cidr) as [ipaddr.IPv6, number];
const GLOBAL_UNICAST_V6 = v6Cidr('2000::/3');
const NAT64_WELL_KNOWN = v6Cidr('64:ff9b::/96');
const IPV4_COMPATIBLE = v6Cidr('::/96');

function classifyV4(ip: ipaddr.IPv4): string | null {
  const range = ip.range();
  return range === 'unicast' ? null : (RANGE_NAMES[range] ?? range);
}

/** The IPv4 address in the low 32 bits of an IPv6 address. */
const low32 = (ip: ipaddr.IPv6) => {
  const p = ip.parts;
  return new ipaddr.IPv4([p[6] >> 8, p[6] & 0xff, p[7] >> 8, p[7] & 0xff]);
};

function classifyV6(ip: ipaddr.IPv6): string | null {
  const range = ip.range();
  // Forms that carry an IPv4 address are judged by that address: ::ffff:127.0.0.1 is loopback.
  if (range === 'ipv4Mapped') return embedded(classifyV4(ip.toIPv4Address()));
  if (range === 'rfc6052') return ip.match(NAT64_WELL_KNOWN) ? embedded(classifyV4(low32(ip))) : 'local-use NAT64';
  if (range === '6to4') {
    const p = ip.parts;
    return embedded(classifyV4(new ipaddr.IPv4([p[1] >> 8, p[1] & 0xff, p[2] >> 8, p[2] & 0xff])));
  }
  if (range !== 'unicast') return RANGE_NAMES[range] ?? range;
  if (ip.match(IPV4_COMPATIBLE)) return 'IPv4-compatible IPv6 (deprecated)';
  // Outside 2000::/3 nothing is assigned for global unicast.
  if (!ip.match(GLOBAL_UNICAST_V6)) return 'reserved';
  return null;
}

const embedded = (reason: string | null) => (reason === null ? null : `${reason}, embedded in IPv6`);

/**
 * Classifies an address: null for a public (globally routable unicast) address, otherwise the name of its range.
 * Anything that does not parse as an IP address is refused.
 */
export function nonPublicRange(address: string): string | null {
  let ip: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    ip = ipaddr.parse(address);
  } catch {
    return 'not an IP address';
  }
  return ip.kind() === 'ipv4' ? classifyV4(ip as ipaddr.IPv4) : classifyV6(ip as ipaddr.IPv6);
}

/** The default: public addresses only. */
export const publicAddressesOnly: AddressPolicy = nonPublicRange;

/** MEDIA_ALLOW_PRIVATE_NETWORKS=true (tests, local development): every address. */
export const anyAddress: AddressPolicy = () => null;

// TRUST_PROXY: whose X-Forwarded-For the server believes (the client's address for rate limits and logs), checked so
// that no setting lets any client choose its address.
import ipaddr from 'ipaddr.js';
import { ConfigError, type Env, int, str } from './env.js';

/** Fastify's trustProxy forms we take: a number of proxy hops, or the proxies' addresses and CIDR ranges. Never "all". */
export type TrustProxy = { hops: number } | { addresses: readonly string[] } | null;

/** proxy-addr's names for ranges (Fastify's trustProxy takes them too). */
const TRUST_PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

const isAddress = (text: string) => ipaddr.IPv4.isValidFourPartDecimal(text) || (text.includes(':') && ipaddr.IPv6.isValid(text));

function isAddressOrRange(text: string): boolean {
  if (TRUST_PROXY_RANGE_NAMES.includes(text)) return true;
  const slash = text.indexOf('/');
  if (slash === -1) return isAddress(text);
  const address = text.slice(0, slash);
  const bits = text.slice(slash + 1);
  if (!isAddress(address) || !/^\d{1,3}$/.test(bits)) return false;
  return Number(bits) <= (address.includes(':') ? 128 : 32);
}

/**
 * TRUST_PROXY: unset, `false` or `0`: X-Forwarded-For is ignored. A number: that many proxies in front of the server
 * (the last N entries are theirs; the client is the one before). A list: the proxies' addresses or CIDR ranges (only
 * entries they added are believed). `true` ("trust every hop") let any client choose its address, so it is refused.
 */
export function trustProxy(env: Env): TrustProxy {
  const raw = str(env, 'TRUST_PROXY');
  if (raw === undefined || /^(false|no|0)$/i.test(raw)) return null;
  if (/^(true|yes)$/i.test(raw)) {
    throw new ConfigError(
      `TRUST_PROXY=${raw} is no longer accepted: it believed any client's X-Forwarded-For. Set the number of proxies in front of the server (TRUST_PROXY=1 behind one load balancer) or their addresses (TRUST_PROXY=10.0.0.0/8)`,
    );
  }
  if (/^\d+$/.test(raw)) return { hops: int(env, 'TRUST_PROXY', 0, 1, 10) };
  const entries = raw.split(',').map((e) => e.trim());
  const bad = entries.find((e) => !isAddressOrRange(e));
  if (bad !== undefined) {
    throw new ConfigError(
      `TRUST_PROXY must be a number of proxies (1 to 10) or a comma-separated list of proxy addresses or CIDR ranges, got "${bad === '' ? raw : bad}"`,
    );
  }
  return { addresses: entries };
}

import { BlockList, isIP } from 'node:net';

// Which proxies may say who the client is (TRUST_PROXY). A proxy appends the address it got the
// request from to X-Forwarded-For; whatever stands to the left of that was written by the
// client and proves nothing. So the client's address is found from the right: past a number of
// proxy hops, or past the addresses of known proxies, never by taking the left-most entry (which
// `true` did: any client could then pick the address the per-IP rate limits count).

/** false: no proxy (the socket's address); a number: that many proxy hops; a list: the proxies' addresses and CIDRs. */
export type TrustProxy = false | number | string[];

/** proxy-addr's names for address ranges, spelled out. */
const RANGES: Record<string, string[]> = {
  loopback: ['127.0.0.1/8', '::1/128'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
};

const MAX_HOPS = 100;

/** Reads TRUST_PROXY; throws an Error whose message says what is accepted. */
export function parseTrustProxy(text: string): TrustProxy {
  const value = text.trim();
  if (value === '' || value === 'false' || value === '0') return false;
  if (value === 'true')
    throw new Error(
      'true trusted the left-most X-Forwarded-For entry, which the client writes; give the number of proxies in front of Hunch (e.g. 1 for one load balancer) or their addresses',
    );
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    if (hops > MAX_HOPS) throw new Error(`must be at most ${MAX_HOPS} proxy hops`);
    return hops;
  }
  const entries = value.split(',').map((entry) => entry.trim());
  const addresses: string[] = [];
  for (const entry of entries) {
    const range = RANGES[entry];
    if (range) addresses.push(...range);
    else if (isAddressOrCidr(entry)) addresses.push(entry);
    else
      throw new Error(
        `"${entry}" is not a number of proxy hops, an IP address, a CIDR (10.0.0.0/8) or one of loopback, linklocal, uniquelocal`,
      );
  }
  return addresses;
}

function isAddressOrCidr(entry: string): boolean {
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * Fastify's `trustProxy` for it. A number is given as a function of the hop: Fastify reads a bare
 * number as "trust nobody" (it cannot tell whether the peer really is a proxy), and
 * proxy-addr asks the function about the socket's address first (hop 0), then each
 * X-Forwarded-For entry from the right, stopping at the first it is told not to trust.
 */
export function fastifyTrustProxy(
  trust: TrustProxy,
): false | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trust !== 'number') return trust;
  return (_address, hop) => hop < trust;
}

/**
 * Whether a connection from `address` comes from a trusted proxy: with a number of hops every
 * peer is one (the load balancer is the only thing that connects), with a list the peers on it.
 */
export function trustedPeerCheck(trust: TrustProxy): (address: string) => boolean {
  if (trust === false) return () => false;
  if (typeof trust === 'number') return () => true;
  const list = new BlockList();
  for (const entry of trust) {
    const [address = '', prefix] = entry.split('/');
    const type = isIP(address) === 4 ? 'ipv4' : 'ipv6';
    if (prefix === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(prefix), type);
  }
  return (address) => {
    const family = isIP(address);
    return family !== 0 && list.check(address, family === 4 ? 'ipv4' : 'ipv6');
  };
}

import { lookup as dnsLookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { isAllowedPushEndpoint, type PushEndpointRule } from '../push-endpoints';

// Where a webhook may be sent (a server-side request forgery is the risk: a hook's URL is
// chosen by a group admin, not the operator). The push endpoints' rules (../push-endpoints.ts)
// say it: WEBHOOK_HOSTS, in PUSH_ENDPOINT_HOSTS' form, lists hosts the operator allows whatever
// their address (a local receiver: `http://127.0.0.1`). Any other URL must be https and its
// host must resolve to public addresses only: no loopback, private, link-local or other
// reserved range. The check is made again at every send, and the request goes to the address
// that was checked (no second lookup a DNS answer could change in between).

const PRIVATE_RANGES = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 3],
] as const)
  PRIVATE_RANGES.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 127],
  ['::ffff:0:0', 96],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  PRIVATE_RANGES.addSubnet(network, prefix, 'ipv6');

/** Whether an address is one the server must never request for a group admin. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  if (family === 6 && address.toLowerCase().startsWith('::ffff:')) {
    const mapped = address.slice('::ffff:'.length);
    if (isIP(mapped) === 4) return PRIVATE_RANGES.check(mapped, 'ipv4');
  }
  return PRIVATE_RANGES.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

const LOCAL_NAMES = /(^|\.)(localhost|local|internal|home\.arpa)$/;

/** Why the URL cannot be a webhook, or null: what saving a hook checks (no lookup yet). */
export function webhookUrlRefusal(url: string, rules: readonly PushEndpointRule[]): string | null {
  if (!URL.canParse(url)) return 'Enter the full address, starting with https://';
  const parsed = new URL(url);
  if (parsed.username || parsed.password)
    return 'Leave the user name and password out of the address';
  if (isAllowedPushEndpoint(url, rules)) return null;
  if (parsed.protocol !== 'https:') return 'Use an https:// address';
  const host = parsed.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (isIP(host) ? isPrivateAddress(host) : LOCAL_NAMES.test(host) || !host.includes('.'))
    return 'Hunch can only send to public addresses';
  return null;
}

export interface ResolvedDestination {
  address: string;
  family: 4 | 6;
}

export type AddressLookup = (host: string) => Promise<{ address: string; family: number }[]>;

export const systemLookup: AddressLookup = (host) => dnsLookup(host, { all: true, verbatim: true });

/**
 * The address to connect to for `url`, or why not: refused URLs, names that do not resolve, and
 * (unless the operator allows the host) names with any private address.
 */
export async function resolveWebhookDestination(
  url: string,
  rules: readonly PushEndpointRule[],
  lookup: AddressLookup = systemLookup,
): Promise<ResolvedDestination | { refusal: string }> {
  const refusal = webhookUrlRefusal(url, rules);
  if (refusal) return { refusal };
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  let addresses: { address: string; family: number }[];
  if (isIP(host)) addresses = [{ address: host, family: isIP(host) }];
  else {
    try {
      addresses = await lookup(host);
    } catch {
      return { refusal: 'address not found' };
    }
  }
  if (addresses.length === 0) return { refusal: 'address not found' };
  const isOperatorHost = isAllowedPushEndpoint(url, rules);
  if (!isOperatorHost && addresses.some((entry) => isPrivateAddress(entry.address)))
    return { refusal: 'private address refused' };
  const first = addresses[0]!;
  return { address: first.address, family: first.family === 6 ? 6 : 4 };
}

// Which push endpoints the server will ever request (accepting any https host or IP would let
// a client make the server send requests anywhere: a server-side request forgery). Only the
// browsers' push services, by default; PUSH_ENDPOINT_HOSTS replaces the list (a test's
// stand-in on loopback, a new browser's service).
//
// An entry is a host name, optionally `*.` for its subdomains (https on port 443 only), or an
// origin with a scheme (`http://127.0.0.1`: that scheme and host, any port).

/** The browsers' push services: Chrome, Edge, Opera, Samsung (FCM), Firefox, Safari, Windows (WNS). */
export const DEFAULT_PUSH_ENDPOINT_HOSTS = [
  'fcm.googleapis.com',
  'android.googleapis.com',
  'updates.push.services.mozilla.com',
  '*.push.services.mozilla.com',
  '*.push.apple.com',
  '*.notify.windows.com',
].join(',');

export interface PushEndpointRule {
  protocol: 'https:' | 'http:';
  /** Lower-case host; with `isSuffix`, any subdomain of it (not the host itself). */
  host: string;
  isSuffix: boolean;
  /** Bare host entries allow the default https port only; an origin entry any port. */
  anyPort: boolean;
}

const HOST = /^(\*\.)?([a-z0-9-]+(\.[a-z0-9-]+)*|\[[0-9a-f:.]+\])$/;

/** The rules of a comma-separated list; throws naming the first entry that is not one. */
export function parsePushEndpointHosts(list: string): PushEndpointRule[] {
  return list
    .split(',')
    .map((entry) => entry.trim().toLowerCase())
    .filter((entry) => entry !== '')
    .map((entry) => {
      const origin = /^(https?:)\/\/([^/:]+|\[[^\]]+\])(:\d+)?\/?$/.exec(entry);
      if (origin)
        return {
          protocol: origin[1] as 'https:' | 'http:',
          host: origin[2]!,
          isSuffix: false,
          anyPort: true,
        };
      const match = HOST.exec(entry);
      if (!match) throw new Error(`not a host name or an origin: ${entry}`);
      return {
        protocol: 'https:' as const,
        host: match[2]!,
        isSuffix: Boolean(match[1]),
        anyPort: false,
      };
    });
}

/** Whether the server may request this endpoint: it must parse and match a rule. */
export function isAllowedPushEndpoint(
  endpoint: string,
  rules: readonly PushEndpointRule[],
): boolean {
  if (!URL.canParse(endpoint)) return false;
  const url = new URL(endpoint);
  if (url.username || url.password) return false;
  const host = url.hostname.toLowerCase();
  return rules.some(
    (rule) =>
      url.protocol === rule.protocol &&
      (rule.anyPort || url.port === '') &&
      (rule.isSuffix ? host.endsWith(`.${rule.host}`) : host === rule.host),
  );
}

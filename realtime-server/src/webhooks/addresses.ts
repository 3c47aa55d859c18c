// Which addresses a webhook may call (docs/api.md §15): public ones only, unless
// WEBHOOK_ALLOW_PRIVATE is set. Checked when a webhook is created and again on every delivery,
// on the very address the request connects to (a lookup that checks what it resolves), so a host
// name that resolves to a public address at creation and to 127.0.0.1 later (DNS rebinding) is
// refused at send time too.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP } from 'node:net';

const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], // "this" network
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata services
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  blocked.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96], // NAT64: an IPv4 address in disguise
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
] as const) {
  blocked.addSubnet(net, prefix, 'ipv6');
}

/** A loopback, private, link-local or otherwise non-public address. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family !== 6) return true;
  // An IPv4 address written as IPv6 (::ffff:127.0.0.1) is that IPv4 address.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1]) return blocked.check(mapped[1], 'ipv4');
  return blocked.check(address, 'ipv6');
}

/** A webhook URL the rules refuse: the sentence says why (docs/api.md §8, 422 with `fields.url`). */
export class UnsafeUrlError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnsafeUrlError';
  }
}

export const PRIVATE_ADDRESS_SENTENCE =
  'This address resolves to a private or loopback address; webhooks only call public addresses.';

const hostOf = (url: URL): string => url.hostname.replace(/^\[(.*)\]$/, '$1');

/** Checks a URL's scheme and literal host, without resolving it. */
function checkForm(url: URL, allowPrivate: boolean): void {
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new UnsafeUrlError('Use an https:// address.');
  }
  if (url.username || url.password)
    throw new UnsafeUrlError('Leave the user name and password out of the URL.');
  if (allowPrivate) return;
  const host = hostOf(url);
  if (isIP(host) && isPrivateAddress(host)) throw new UnsafeUrlError(PRIVATE_ADDRESS_SENTENCE);
  if (host === 'localhost' || host.endsWith('.localhost')) throw new UnsafeUrlError(PRIVATE_ADDRESS_SENTENCE);
}

/** Plain http only with WEBHOOK_ALLOW_PRIVATE (development and tests). */
function checkHttps(url: URL, allowPrivate: boolean): void {
  if (!allowPrivate && url.protocol !== 'https:') throw new UnsafeUrlError('Use an https:// address.');
}

function resolveAll(host: string): Promise<LookupAddress[]> {
  return new Promise((resolve, reject) =>
    dnsLookup(host, { all: true, verbatim: true }, (error, addresses) =>
      error ? reject(error) : resolve(addresses),
    ),
  );
}

/**
 * Checks a webhook URL when it is registered: the scheme, and every address its host resolves to.
 * Throws UnsafeUrlError with the sentence for the owner.
 */
export async function checkWebhookUrl(raw: string, allowPrivate: boolean): Promise<URL> {
  const url = new URL(raw);
  checkForm(url, allowPrivate);
  if (allowPrivate) return url;
  const host = hostOf(url);
  if (isIP(host)) {
    checkHttps(url, allowPrivate);
    return url;
  }
  let addresses: LookupAddress[];
  try {
    addresses = await resolveAll(host);
  } catch {
    throw new UnsafeUrlError(`The host name “${host}” does not resolve.`);
  }
  if (addresses.length === 0 || addresses.some((a) => isPrivateAddress(a.address))) {
    throw new UnsafeUrlError(PRIVATE_ADDRESS_SENTENCE);
  }
  checkHttps(url, allowPrivate);
  return url;
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * A `lookup` for http.request that refuses private addresses: the request connects only to an
 * address this function checked, so a name cannot resolve to one address when checked and to
 * another when connected.
 */
export function guardedLookup(allowPrivate: boolean) {
  return (hostname: string, options: { all?: boolean }, callback: LookupCallback): void => {
    dnsLookup(hostname, { all: true, verbatim: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const usable = allowPrivate ? addresses : addresses.filter((a) => !isPrivateAddress(a.address));
      if (usable.length === 0 || usable.length < addresses.length) {
        return callback(
          Object.assign(new UnsafeUrlError(PRIVATE_ADDRESS_SENTENCE), { code: 'EPRIVATE' }),
          [],
        );
      }
      if (options.all) return callback(null, usable);
      const first = usable[0] as LookupAddress;
      callback(null, first.address, first.family);
    });
  };
}

/** The checks a delivery makes before it connects (the literal host; names go through guardedLookup). */
export function checkBeforeSend(url: URL, allowPrivate: boolean): void {
  checkForm(url, allowPrivate);
  checkHttps(url, allowPrivate);
}

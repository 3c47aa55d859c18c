// Which browser origins may change things and open sockets (docs/api.md §7, "Origins"): the one
// rule the REST hook, the document gateway and socket.io's handshake all ask.
//
// PUBLIC_ORIGIN, when the operator sets it, is the only origin. Left unset (a laptop, a team's
// box on the office network), the server also takes its own address as the browser typed it,
// when that address is an IP address, `localhost` or this machine's name: people who open
// http://192.168.1.20:8080 from the next desk could otherwise not even sign up ("Requests from
// another site"), while nothing told them why. A domain name is not taken that way, since a page
// on any domain can be pointed at this machine by its DNS (rebinding) and would then pass a
// same-host check; an operator who serves a domain names it in PUBLIC_ORIGIN.
import { isIP } from 'node:net';
import { hostname, networkInterfaces } from 'node:os';
import type { Config } from '../config.ts';

type OriginConfig = Pick<Config, 'publicOrigin' | 'publicOriginGiven'>;

/** The request's own origin (scheme from `protocol`, host from its Host header) when it may be used in place of PUBLIC_ORIGIN. */
function ownLocalOrigin(host: string | undefined, protocol: 'http' | 'https'): string | null {
  if (!host) return null;
  let url: URL;
  try {
    url = new URL(`${protocol}://${host}`);
  } catch {
    return null;
  }
  // `new URL` accepts a Host with a path or credentials in it: only a bare host[:port] counts.
  if (url.host !== host.toLowerCase() || !isLocalName(url.hostname)) return null;
  return url.origin;
}

function isLocalName(name: string): boolean {
  const bare = name.startsWith('[') ? name.slice(1, -1) : name;
  if (isIP(bare) !== 0) return true;
  if (bare === 'localhost' || bare.endsWith('.localhost')) return true;
  const machine = hostname().toLowerCase();
  const short = machine.split('.')[0];
  return bare === machine || (short !== undefined && bare === `${short}.local`);
}

export interface OriginRule {
  /**
   * Whether a request with this Origin header (absent: not sent by a page, e.g. a script or a
   * same-origin navigation) to this Host may go on.
   */
  allows(origin: string | undefined, host: string | undefined): boolean;
  /** The origin to write into links handed back to a request that came to `host`. */
  linkOrigin(host: string | undefined, protocol: 'http' | 'https'): string;
  /** Why a refused request was refused, as a sentence for the person who sent it. */
  readonly refusal: string;
}

export function originRule(config: OriginConfig): OriginRule {
  return {
    allows(origin, host) {
      if (origin === undefined || origin === config.publicOrigin) return true;
      if (config.publicOriginGiven) return false;
      // The page is this very server at a local address: same origin, whatever scheme a proxy used.
      return origin === ownLocalOrigin(host, 'http') || origin === ownLocalOrigin(host, 'https');
    },
    linkOrigin(host, protocol) {
      if (config.publicOriginGiven) return config.publicOrigin;
      return ownLocalOrigin(host, protocol) ?? config.publicOrigin;
    },
    get refusal() {
      return `Requests from another site are not allowed: this Tandem answers at ${config.publicOrigin}. Open it there, or ask whoever runs it to set PUBLIC_ORIGIN to the address you use.`;
    },
  };
}

/**
 * Where people on the same network can reach a server that listens on every interface with no
 * PUBLIC_ORIGIN: its IPv4 addresses (the start's log names them, since they work).
 */
export function networkOrigins(config: Pick<Config, 'host' | 'publicOriginGiven'>, port: number): string[] {
  if (config.publicOriginGiven || (config.host !== '0.0.0.0' && config.host !== '::')) return [];
  return Object.values(networkInterfaces())
    .flat()
    .filter((address) => address !== undefined && address.family === 'IPv4' && !address.internal)
    .map((address) => `http://${address?.address}:${port}`);
}

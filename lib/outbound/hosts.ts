/**
 * The hosts a credential may be sent to (`allowedHosts`): exact host names or
 * `*.example.com` (any name under it, not the domain itself), each with an
 * optional port (without one, any port of that host). The outbound client
 * places a credential only on a request to a host its list allows, on every
 * hop, and refuses the call before a byte is sent otherwise: so pointing an
 * integration, a step or the remote at another host cannot take the key there.
 */

/** A host pattern as a credential keeps it: lower-case name or `*.`-prefixed name, or a bracketed IPv6 address, and an optional port. */
export const hostPattern = /^(?:(?:\*\.)?[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*|\[[0-9a-f:.]+\])(?::[0-9]{1,5})?$/;

/** How many patterns one credential may list, and how long each may be. */
export const hostPatternLimits = { maxPatterns: 20, maxLength: 260 } as const;

function split(pattern: string): { host: string; port?: string } {
  const at = pattern.lastIndexOf(':');
  return at > pattern.lastIndexOf(']') && at >= 0 ? { host: pattern.slice(0, at), port: pattern.slice(at + 1) } : { host: pattern };
}

const defaultPort = (protocol: string) => (protocol === 'https:' ? '443' : '80');

/** Whether `url`'s host (and port) is one `patterns` allows. */
export function hostAllowed(url: URL, patterns: readonly string[]): boolean {
  const host = url.hostname.toLowerCase();
  const port = url.port || defaultPort(url.protocol);
  return patterns.some((pattern) => {
    const wanted = split(pattern.toLowerCase());
    if (wanted.port !== undefined && Number(wanted.port) !== Number(port)) return false;
    return wanted.host.startsWith('*.') ? host.endsWith(wanted.host.slice(1)) && host.length > wanted.host.length - 1 : host === wanted.host;
  });
}

/** The host and port of a URL as a pattern names them exactly (`api.example.com:8443`, `127.0.0.1:3002`). */
export const hostOf = (url: URL): string => (url.port ? `${url.hostname}:${url.port}` : url.hostname).toLowerCase();

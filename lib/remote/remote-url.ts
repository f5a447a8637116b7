/** Which URLs can be a workspace's Git remote, and how one is shown in messages and logs. */
import * as z from 'zod/mini';
import { httpUrlStart } from '../vocabulary/patterns.ts';
import { blockedAddressMessage, metadataHost, redactUrl } from '../outbound/index.ts';

const SECRET_PARAM = /token|key|secret|password|passwd|pwd|auth|credential|sig|signature|session|oauth|bearer|apikey|pat$/;

/** Stands for a URL that did not parse: such text is never echoed, as what a secret in it spans cannot be told. */
export const UNPARSED = '(the URL given)';

/** How a URL is shown: userinfo, fragment and every query value removed. */
export function showUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return UNPARSED;
  }
  return redactUrl(parsed, [...parsed.searchParams.keys()]);
}

/** A path character other than "%", and what may not follow "%" or "%4" (no "%40", an "@" in disguise). */
const pathCharacter = (besides = '') => `[^\\x00-\\x1f\\x7f?#@%${besides}]`;
const percents = '%(%|4%)*';
const path = `((${pathCharacter()}|${percents}(${pathCharacter('4')}|4${pathCharacter('0')}))+(${percents}4?)?|${percents}4?)`;

/**
 * What a remote's URL looks like, as far as a pattern can tell (the OpenAPI
 * document states it): http(s), no user name or password, a repository path
 * without "@" or "%40", no query or fragment, no space or control character.
 */
export const remoteUrlPattern = new RegExp(`${httpUrlStart}[/\\\\]${path}$`);

/**
 * Why this URL cannot be a Git remote (a message for the user), or undefined
 * when it can. No secret is accepted in the URL: a credential in it would be
 * stored and logged with the URL.
 */
export function validateRemoteUrl(url: string): string | undefined {
  const text = url.trim();
  if (/^[\w.-]+@[\w.-]+:/.test(text))
    return `The URL is an SSH address; SSH is not supported: give the repository's HTTPS clone URL (e.g. https://github.com/owner/repo.git).`;
  let parsed: URL;
  try {
    parsed = new URL(text);
  } catch {
    if (/^[a-z][a-z0-9+.-]*:\/\/[^?#]*@/i.test(text))
      return 'No secret in the URL is accepted: remove the user name and password (the part before "@") and put the token in the credential instead.';
    return `The URL is not a valid URL; give the repository's HTTPS clone URL (e.g. https://github.com/owner/repo.git).`;
  }
  // A password holding "/" parses as host and path (https://user:pa/ss@host/...): "@" in the path is refused unseen.
  if (/@|%40/i.test(parsed.pathname))
    return 'No secret in the URL is accepted: remove the user name and password (the part before "@") and put the token in the credential instead.';
  const shown = showUrl(text);
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')
    return `${shown} is not an https:// URL; give the repository's HTTPS clone URL (SSH and other protocols are not supported).`;
  if (parsed.username || parsed.password)
    return `No secret in the URL is accepted: remove the user name and password (the part before "@") from ${shown} and put the token in the credential instead.`;
  const secret = [...parsed.searchParams.keys()].find((name) => SECRET_PARAM.test(name.toLowerCase().replace(/[-_]/g, '')));
  if (secret !== undefined)
    return `No secret in the URL is accepted: remove the query parameter "${secret}" from ${shown} and put the token in the credential instead.`;
  if (parsed.search) return `${shown} has a query string; a Git clone URL has none: remove the part from "?" on.`;
  if (parsed.hash) return `${shown} has a fragment; a Git clone URL has none: remove the part from "#" on.`;
  // Refused when saved as every pull would refuse it, in the outbound client's words.
  const metadata = metadataHost(parsed.hostname);
  if (metadata) return blockedAddressMessage(shown, metadata.subject, metadata.range);
  if (parsed.pathname === '/' || parsed.pathname === '')
    return `${shown} names no repository; give the repository's clone URL (e.g. https://github.com/owner/repo.git).`;
  if (!remoteUrlPattern.test(url))
    return `${shown} is not a plain clone URL: remove any space, control character, empty query ("?") or fragment ("#"), and write it as https://host/path.`;
  return undefined;
}

/** The remote URL of a request: the server's check, with the pattern the document shows. */
export const remoteUrlSchema = z
  .string()
  .check(
    z.minLength(1, { error: 'must not be empty', abort: true }),
    z.maxLength(2048, { error: 'must be at most 2048 characters', abort: true }),
    z.regex(remoteUrlPattern, { error: (issue) => validateRemoteUrl(String(issue.input)) }),
  )
  .register(z.globalRegistry, { format: 'uri' });

/**
 * Query-string handling that never re-serialises the parameters it leaves
 * alone: providers sign or compare query strings byte for byte, and
 * URLSearchParams would re-encode them (`%20` becomes `+`, `~` becomes
 * `%7E`). Pairs are kept as the raw text the URL parser produced.
 */

export const REDACTED = '[REDACTED]';

/** A query pair's name as a server decodes it (`+` is a space, %XX decoded). */
function pairName(pair: string): string {
  const raw = pair.split('=', 1)[0] ?? '';
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return raw; // malformed %-escape: compare it as written
  }
}

function pairs(url: URL): string[] {
  return url.search ? url.search.slice(1).split('&') : [];
}

/** Whether the URL has a query parameter of exactly this name. */
export function hasQueryParam(url: URL, name: string): boolean {
  return pairs(url).some((pair) => pairName(pair) === name);
}

/**
 * A copy of the URL with `name=value` appended to its query. Setting
 * `search` to text the parser already produced is a no-op for the existing
 * pairs, so they stay byte-for-byte as they were.
 */
export function withQueryParam(url: URL, name: string, value: string): URL {
  const copy = new URL(url.href);
  copy.search = [...pairs(url), `${encodeURIComponent(name)}=${encodeURIComponent(value)}`].join('&');
  return copy;
}

/** A copy of the URL without any parameter of this name (case-insensitive: removing too much is safe). */
export function withoutQueryParam(url: URL, name: string): URL {
  const copy = new URL(url.href);
  copy.search = pairs(url)
    .filter((pair) => pairName(pair).toLowerCase() !== name.toLowerCase())
    .join('&');
  return copy;
}

/**
 * The URL as it may be logged or shown: the values of `secretParams` (matched
 * case-insensitively) replaced by [REDACTED], userinfo and fragment removed,
 * every other byte left as it was. Text that is not a URL is redacted the
 * same way, so even a rejected URL can go into an error message.
 */
export function redactUrl(url: string | URL, secretParams: string[]): string {
  let text: string;
  try {
    const parsed = new URL(String(url));
    parsed.username = '';
    parsed.password = '';
    parsed.hash = '';
    text = parsed.href;
  } catch {
    text = String(url)
      .replace(/#.*$/s, '')
      .replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#]*@/i, `$1${REDACTED}@`);
  }
  const queryAt = text.indexOf('?');
  if (queryAt < 0 || secretParams.length === 0) return text;
  const secret = new Set(secretParams.map((name) => name.toLowerCase()));
  const query = text
    .slice(queryAt + 1)
    .split('&')
    .map((pair) => (secret.has(pairName(pair).toLowerCase()) ? `${pair.split('=', 1)[0]}=${REDACTED}` : pair));
  return `${text.slice(0, queryAt + 1)}${query.join('&')}`;
}

/** JSON-escaped as JSON.stringify does, and with every non-ASCII character as \uXXXX (as other JSON writers do). */
const jsonEscaped = (text: string) => JSON.stringify(text).slice(1, -1);
const asciiEscaped = (text: string) => jsonEscaped(text).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/**
 * %-encoded as encodeURIComponent, encodeURI, HTML forms and URLSearchParams write it,
 * and as the URL parser rewrites each of those in a query or a path (it
 * encodes `'` in a query, which encodeURIComponent leaves): the form a key
 * placed in a query, or echoed into a redirect target, has on the wire. None
 * for text that cannot be encoded (a lone surrogate).
 */
function encodedForms(secret: string): string[] {
  try {
    const encoded = encodeURIComponent(secret);
    // encodeURI leaves + & = / ? # as they are: a provider echoing the key into a redirect's path writes it so.
    const written = [encoded, encoded.replace(/%20/g, '+'), new URLSearchParams({ k: secret }).toString().slice(2), encodeURI(secret)];
    const parsed = written.flatMap((form) => [new URL(`http://h/?k=${form}`).search.slice(3), new URL(`http://h/${form}`).pathname.slice(1)]);
    return [...written, ...parsed];
  } catch {
    return [];
  }
}

/**
 * What replaces every occurrence of a secret value with [REDACTED]: as typed,
 * %-encoded, and each of these JSON-escaped once or twice (a JSON document
 * held in a string). A second line of defence for text a provider controls,
 * such as a redirect target or an answer that echoes the key. Longest forms
 * first, so that a shorter one never cuts a longer one apart.
 */
export function secretScrubber(secret: string | undefined): (text: string) => string {
  if (!secret) return (text) => text;
  const base = [secret, ...encodedForms(secret)];
  const forms = [
    ...new Set([
      ...base,
      ...base.map(jsonEscaped),
      ...base.map((form) => jsonEscaped(jsonEscaped(form))),
      asciiEscaped(secret),
      jsonEscaped(asciiEscaped(secret)),
    ]),
  ];
  forms.sort((a, b) => b.length - a.length);
  return (text) => forms.reduce((scrubbed, form) => scrubbed.split(form).join(REDACTED), text);
}

export const scrubSecret = (text: string, secret: string | undefined): string => secretScrubber(secret)(text);

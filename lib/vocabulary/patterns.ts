/**
 * Patterns that validate requests and appear, as the same text, in the
 * OpenAPI document. So they are written in the dialect every JSON Schema tool
 * reads (ECMA-262 without the `u` flag, within JSON Schema's interoperable
 * subset): no `\p{…}` classes, lookarounds or backreferences.
 */

/** Unicode's Cc (control) category, exactly: U+0000–U+001F and U+007F–U+009F. A class body, to compose. */
export const controlCharacters = '\\x00-\\x1f\\x7f-\\x9f';

export const noControlCharacters = new RegExp(`^[^${controlCharacters}]*$`);

/**
 * The start of an http:// or https:// URL up to its path: scheme, host and
 * port, with no user name or password (an "@" before the path), no space or
 * control character. A WHATWG URL parser takes "\" for "/" in such URLs.
 */
export const httpUrlStart = '^[Hh][Tt][Tt][Pp][Ss]?://[^\\x00-\\x20\\x7f/?#@\\\\]+';

/** An http:// or https:// URL without user name or password: what an outbound call may go to. */
export const httpUrlPattern = new RegExp(`${httpUrlStart}([/?#\\\\].*)?$`);

/** An http:// or https:// URL without user name, password, query or fragment, space or control character: a base that paths are joined to. */
export const httpBaseUrlPattern = new RegExp(`${httpUrlStart}([/\\\\][^?#\\x00-\\x20\\x7f]*)?$`);

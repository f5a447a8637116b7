// Apart from the client so that request validation can use it without bundling the client.
/** Hop-by-hop headers (RFC 9110 7.6.1) and headers this module computes; a caller's are dropped. */
export const DROPPED_HEADERS: ReadonlySet<string> = new Set([
  'host',
  'content-length',
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authorization',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'expect',
]);

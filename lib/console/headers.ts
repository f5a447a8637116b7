/**
 * The headers every console file is served with, by the local runtime and by
 * the CloudFront distribution alike (cdk/console.ts reads them from here), so
 * the page tested locally runs under the policy it is deployed with.
 *
 * The page is one script and one style sheet of its own origin and talks only
 * to the API on that same origin: anything else (inline script or style, a
 * frame, a form posting elsewhere, a plug-in) is refused by the browser.
 */
export const contentSecurityPolicy = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "object-src 'none'",
].join('; ');

export const consoleSecurityHeaders = {
  'content-security-policy': contentSecurityPolicy,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'strict-transport-security': 'max-age=63072000; includeSubDomains',
  'cross-origin-opener-policy': 'same-origin',
  'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=()',
} as const;

/** Where the console lives under its origin: the API keeps `/dev/*` and `/openapi.json`. */
export const consolePath = '/console/';

/**
 * The headers every console file is served with, by the local runtime and by
 * the CloudFront distribution alike (cdk/console.ts reads them from here), so
 * the page tested locally runs under the policy it is deployed with.
 *
 * The page is one script and one style sheet of its own origin and talks only
 * to the API on that same origin: anything else (inline script or style, a
 * frame, a form posting elsewhere, a plug-in) is refused by the browser.
 */
export const contentSecurityPolicyFor = (signInOrigins: readonly string[]) =>
  [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    // The issuer people sign in with: its keys' discovery, token and revocation endpoints, called by the page's token worker.
    ["connect-src 'self'", ...signInOrigins].join(' '),
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
    "object-src 'none'",
  ].join('; ');

/** The policy with no issuer to reach (a page signed in with keys only). */
export const contentSecurityPolicy = contentSecurityPolicyFor([]);

/**
 * The headers, where the page may reach `signInOrigins` (the issuer's, and
 * its hosted sign-in's where that is another) besides its own origin.
 */
export const consoleSecurityHeadersFor = (signInOrigins: readonly string[]) => ({
  ...consoleSecurityHeaders,
  'content-security-policy': contentSecurityPolicyFor(signInOrigins),
});

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

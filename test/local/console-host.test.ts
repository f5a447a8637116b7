/**
 * The local runtime's console host: the files with the deployed security
 * headers, the one-time sign-in code (once, then refused), and the API beside
 * it untouched.
 */
import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy } from '../../lib/console/headers.ts';
import { useRuntime } from '../helpers/runtime.ts';

const t = useRuntime();

const redeem = (code: unknown) =>
  fetch(`${t.runtime.url}/console/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code }) });

describe('console host', () => {
  it('serves the page, its script and its style sheet under the security headers', async () => {
    for (const [path, type] of [
      ['/console/', 'text/html'],
      ['/console/app.js', 'text/javascript'],
      ['/console/app.css', 'text/css'],
    ] as const) {
      const response = await fetch(`${t.runtime.url}${path}`);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-type')).toContain(type);
      expect(response.headers.get('content-security-policy')).toBe(contentSecurityPolicy);
      expect(response.headers.get('x-frame-options')).toBe('DENY');
      expect((await response.text()).length).toBeGreaterThan(100);
    }
    const redirect = await fetch(`${t.runtime.url}/console`, { redirect: 'manual' });
    expect([redirect.status, redirect.headers.get('location')]).toEqual([301, '/console/']);
    expect((await fetch(`${t.runtime.url}/console/nothing.js`)).status).toBe(404);
    expect((await fetch(`${t.runtime.url}/console/app.js`, { method: 'DELETE' })).status).toBe(405);
  });

  it('names its icon in the page, as an image its policy takes, so that no browser asks for a /favicon.ico that is not there', async () => {
    const page = await (await fetch(`${t.runtime.url}/console/`)).text();
    const icon = /<link\s+rel="icon"\s+href="([^"]+)"/.exec(page)?.[1];
    expect(icon).toMatch(/^data:image\/svg\+xml,/);
    expect(contentSecurityPolicy).toContain("img-src 'self' data:");
  });

  it('trades a sign-in code for the key once, and refuses a used, made-up or malformed one', async () => {
    const code = decodeURIComponent(t.runtime.consoleSignInLink().split('#/sign-in/')[1]!);
    const first = await redeem(code);
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ apiKey: t.runtime.apiKey });
    const again = await redeem(code);
    // Its code and message are what the sign-in page shows.
    expect([again.status, await again.json()]).toEqual([403, { code: 'sign_in_link_used', message: expect.stringContaining('has been used or has expired') }]);
    expect((await redeem('made-up')).status).toBe(403);
    expect((await redeem({ code })).status).toBe(403);
    const malformed = await fetch(`${t.runtime.url}/console/session`, { method: 'POST', body: '{' });
    expect(malformed.status).toBe(400);
    const huge = await fetch(`${t.runtime.url}/console/session`, { method: 'POST', body: JSON.stringify({ code: 'x'.repeat(5000) }) });
    expect(huge.status).toBe(413);
    expect((await fetch(`${t.runtime.url}/console/session`)).status).toBe(405);
  });

  it('leaves the API as it was', async () => {
    expect((await t.api('/dev/v1/rule')).status).toBe(200);
    expect((await t.api('/console-not')).status).toBe(404);
  });
});

import { describe, expect, it } from 'vitest';
import { hostAllowed, hostOf, hostPattern } from '../../lib/outbound/hosts.ts';

const allowed = (url: string, patterns: string[]) => hostAllowed(new URL(url), patterns);

describe('hosts a credential may be sent to', () => {
  it('matches an exact host on any port, or on the port it names (the default one when the URL gives none)', () => {
    expect(allowed('https://api.example.com/x', ['api.example.com'])).toBe(true);
    expect(allowed('https://API.Example.com:8443/x', ['api.example.com'])).toBe(true);
    expect(allowed('https://api.example.com/x', ['api.example.com:443'])).toBe(true);
    expect(allowed('http://api.example.com/x', ['api.example.com:443'])).toBe(false);
    expect(allowed('http://127.0.0.1:3999/x', ['127.0.0.1:3002'])).toBe(false);
    expect(allowed('https://api.example.com.evil.test/x', ['api.example.com'])).toBe(false);
    expect(allowed('https://evilapi.example.com/x', ['api.example.com'])).toBe(false);
  });

  it('matches *.example.com for names under the domain, not the domain itself nor a look-alike', () => {
    expect(allowed('https://a.example.com/', ['*.example.com'])).toBe(true);
    expect(allowed('https://a.b.example.com/', ['*.example.com'])).toBe(true);
    expect(allowed('https://example.com/', ['*.example.com'])).toBe(false);
    expect(allowed('https://badexample.com/', ['*.example.com'])).toBe(false);
    expect(allowed('https://a.example.com.evil.test/', ['*.example.com'])).toBe(false);
  });

  it('matches bracketed IPv6 addresses', () => {
    expect(allowed('http://[::1]:8080/', ['[::1]:8080'])).toBe(true);
    expect(allowed('http://[::1]:8080/', ['[::2]'])).toBe(false);
  });

  it('reads as patterns only host names, *. domains and bracketed addresses, with an optional port', () => {
    for (const ok of ['api.example.com', '*.example.com', '127.0.0.1:3002', '[::1]', 'localhost:80']) expect(hostPattern.test(ok), ok).toBe(true);
    for (const bad of ['https://api.example.com', 'api.example.com/path', '*', '*.', 'a.*.com', 'api example.com', 'api.example.com:', 'user@host'])
      expect(hostPattern.test(bad), bad).toBe(false);
  });

  it('names a URL host as a pattern would', () => {
    expect(hostOf(new URL('http://127.0.0.1:3002/v1'))).toBe('127.0.0.1:3002');
    expect(hostOf(new URL('https://API.example.com/'))).toBe('api.example.com');
  });
});

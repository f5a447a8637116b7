import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { describeProviderStatus, redactUrl } from '../../lib/outbound/index.ts';
import { hasQueryParam, scrubSecret, withoutQueryParam, withQueryParam } from '../../lib/outbound/url.ts';

describe('redactUrl', () => {
  it('replaces the secret parameter values and leaves every other byte alone', () => {
    expect(redactUrl('https://api.example.com/v1/items?a=b%20c&api_key=s3cret&x=1+2', ['api_key'])).toBe(
      'https://api.example.com/v1/items?a=b%20c&api_key=[REDACTED]&x=1+2',
    );
  });

  it('matches names as a server decodes them, case-insensitively, and every occurrence', () => {
    expect(redactUrl('https://h/?API_KEY=1&api%5Fkey=2&api_key=3&keep=4', ['api_key'])).toBe(
      'https://h/?API_KEY=[REDACTED]&api%5Fkey=[REDACTED]&api_key=[REDACTED]&keep=4',
    );
    expect(redactUrl('https://h/?my+key=1', ['my key'])).toBe('https://h/?my+key=[REDACTED]');
  });

  it('removes userinfo and fragments', () => {
    expect(redactUrl('https://user:pw@h/p?k=v#frag', ['k'])).toBe('https://h/p?k=[REDACTED]');
  });

  it('redacts text that is not a URL too', () => {
    expect(redactUrl('not a url?api_key=s3cret&b=1', ['api_key'])).toBe('not a url?api_key=[REDACTED]&b=1');
    expect(redactUrl('http://user:pw@[bad/?k=v', ['k'])).toBe('http://[REDACTED]@[bad/?k=[REDACTED]');
  });

  it('accepts a URL object and no secret names', () => {
    expect(redactUrl(new URL('http://h/?a=1'), [])).toBe('http://h/?a=1');
  });

  it('never lets a secret parameter value through', () => {
    const value = fc.string({ minLength: 1 }).filter((s) => !s.includes('&') && !s.includes('#'));
    fc.assert(
      fc.property(value, (secret) => {
        const url = withQueryParam(new URL('https://h/p?a=1'), 'key', `MARK${secret}`);
        const redacted = redactUrl(url, ['key']);
        expect(redacted).toBe('https://h/p?a=1&key=[REDACTED]');
      }),
    );
  });
});

describe('query parameter helpers', () => {
  it('appends without touching the existing query', () => {
    const url = new URL('https://h/p?a=b%20c&x=1+2&q=~!*()&e=%7E&&t=');
    expect(withQueryParam(url, 'api key', "v/+=&'").search).toBe('?a=b%20c&x=1+2&q=~!*()&e=%7E&&t=&api%20key=v%2F%2B%3D%26%27');
  });

  it("keeps the URL parser's own normalisation, as fetch does (a raw ' is sent as %27)", () => {
    expect(withQueryParam(new URL("https://h/?q=it's"), 'k', 'v').search).toBe('?q=it%27s&k=v');
  });

  it('removes only the named parameter', () => {
    expect(withoutQueryParam(new URL('https://h/?a=1&API_KEY=2&b=%20'), 'api_key').href).toBe('https://h/?a=1&b=%20');
    expect(withoutQueryParam(new URL('https://h/?api_key=2'), 'api_key').href).toBe('https://h/');
  });

  it('finds a parameter by its decoded name', () => {
    expect(hasQueryParam(new URL('https://h/?api%5Fkey=1'), 'api_key')).toBe(true);
    expect(hasQueryParam(new URL('https://h/?api_keys=1'), 'api_key')).toBe(false);
  });

  it('scrubs a secret in its plain and encoded forms', () => {
    expect(scrubSecret('a s/c b s%2Fc', 's/c')).toBe('a [REDACTED] b [REDACTED]');
    expect(scrubSecret('untouched', undefined)).toBe('untouched');
  });

  it('scrubs a secret %-encoded as forms and URLSearchParams write it, and JSON-escaped once, twice or as \\u escapes', () => {
    const secret = 'k "q\\ é~(x)';
    const forms = [
      encodeURIComponent(secret).replace(/%20/g, '+'),
      new URLSearchParams({ k: secret }).toString().slice(2),
      JSON.stringify(secret).slice(1, -1),
      JSON.stringify(JSON.stringify(secret).slice(1, -1)).slice(1, -1),
      'k \\"q\\\\ \\u00e9~(x)',
    ];
    for (const form of forms) expect(scrubSecret(`before ${form} after`, secret), form).toBe('before [REDACTED] after');
    expect(scrubSecret(JSON.stringify({ debug: JSON.stringify({ key: secret }) }), secret)).not.toContain('q\\');
  });

  it('scrubs a secret written into a URL with encodeURI, which leaves + & = as they are (a redirect to /ok/<key>), as the URL parser reads it too', () => {
    const secret = 'sk+live&id=7%x y';
    const location = `/ok/${encodeURI(secret)}`;
    const resolved = new URL(location, 'https://provider.example').href;
    for (const text of [location, resolved]) expect(scrubSecret(`redirected to ${text}`, secret), text).not.toContain('live');
  });

  it('leaves text alone for a value that cannot be %-encoded, but for its plain form', () => {
    expect(scrubSecret('a \ud800x b', '\ud800x')).toBe('a [REDACTED] b');
  });
});

describe('describeProviderStatus', () => {
  it.each([
    [401, 'the key is wrong or revoked'],
    [403, 'the key is valid but lacks the permission'],
    [200, 'the provider accepted the request'],
    [204, 'the provider accepted the request'],
    [404, 'the provider has nothing at this URL; check the URL'],
    [429, 'the provider is limiting the rate of calls; try again later'],
    [503, 'the provider failed to handle the request; try again later'],
    [418, 'the provider refused the request (HTTP 418)'],
    [302, 'the provider redirected the request elsewhere'],
  ])('%i: %s', (status, text) => {
    expect(describeProviderStatus(status)).toBe(text);
  });
});

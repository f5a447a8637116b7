/**
 * The URL patterns the document shows are the server's own rules: what the
 * remote's pattern accepts, the server accepts too, unless the URL does not
 * parse or names no repository once parsed (which no pattern can tell).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { httpBaseUrlPattern, httpUrlPattern } from '../../lib/vocabulary/patterns.ts';
import { remoteUrlPattern, validateRemoteUrl } from '../../lib/remote/remote-url.ts';

const url = fc
  .tuple(
    fc.constantFrom('https://', 'http://', 'HTTPS://', 'ftp://', 'https:', 'git@', ' https://'),
    fc.constantFrom('github.com', 'git.example.com:8443', '127.0.0.1:9418', 'h', 'u:p@h', 'user@h', '[::1]', 'a%40b', 'ho st', 'h:99999'),
    fc.array(
      fc.constantFrom(
        '/',
        '\\',
        'repo.git',
        'team',
        '%40',
        '%4',
        '%',
        '%2F',
        '@',
        '?',
        '?ref=main',
        '?token=x',
        '#',
        '#main',
        ' ',
        '\t',
        '..',
        '.',
        'é',
        '\u0001',
      ),
      {
        maxLength: 6,
      },
    ),
  )
  .map(([scheme, host, path]) => `${scheme}${host}${path.join('')}`);

describe('the remote URL pattern', () => {
  it('accepts only what the server accepts, but for URLs that do not parse or name no repository', () => {
    fc.assert(
      fc.property(url, (candidate) => {
        if (remoteUrlPattern.test(candidate)) expect(validateRemoteUrl(candidate) ?? '', candidate).toMatch(/^$|not a valid URL|names no repository/);
      }),
      { numRuns: 5000 },
    );
  });

  it('is what the server ends with: a URL it refuses, the server refuses', () => {
    fc.assert(
      fc.property(url, (candidate) => {
        if (!remoteUrlPattern.test(candidate)) expect(validateRemoteUrl(candidate), candidate).toBeDefined();
      }),
      { numRuns: 5000 },
    );
  });

  it.each([
    ['https://github.com/owner/repo.git', true],
    ['http://127.0.0.1:9418/rules.git', true],
    ['https://h/a%4', true],
    ['https://u@h/x', false],
    ['https://h/a@b', false],
    ['https://h/a%40b', false],
    ['https://h/x?ref=main', false],
    ['https://h/x#main', false],
    ['https://h/x?', false],
    ['https://h/', false],
    [' https://h/x', false],
    ['git@h:x.git', false],
  ])('%j: %s', (candidate, accepted) => {
    expect(remoteUrlPattern.test(candidate)).toBe(accepted);
    expect(validateRemoteUrl(candidate) === undefined).toBe(accepted);
  });
});

describe("the credential test's URL pattern", () => {
  it.each([
    ['https://api.example.com/v1/ping?x=1#f', true],
    ['http://127.0.0.1:9/', true],
    ['HTTP://h', true],
    ['http://user:pass@127.0.0.1:9/', false],
    ['ftp://127.0.0.1/file', false],
    ['file:///etc/passwd', false],
    ['/v1/me', false],
    ['not a url', false],
    ['https://h/a\nb', false],
  ])('%j: %s', (candidate, accepted) => {
    expect(httpUrlPattern.test(candidate)).toBe(accepted);
  });
});

describe("an integration's base URL pattern", () => {
  it('accepts only URLs that parse as http(s), without user, password, query or fragment, but for hosts the parser refuses', () => {
    fc.assert(
      fc.property(url, (candidate) => {
        if (!httpBaseUrlPattern.test(candidate) || !URL.canParse(candidate)) return;
        const parsed = new URL(candidate);
        expect(['http:', 'https:'], candidate).toContain(parsed.protocol);
        expect([parsed.username, parsed.password, parsed.search, parsed.hash], candidate).toEqual(['', '', '', '']);
      }),
      { numRuns: 5000 },
    );
  });

  it.each([
    ['https://api.example.com', true],
    ['https://api.example.com/v1/', true],
    ['http://127.0.0.1:9/a\\b', true],
    ['https://api.example.com/v1?x=1', false],
    ['https://api.example.com/v1#f', false],
    ['https://u@api.example.com', false],
    ['https://api.example.com/a b', false],
    ['ftp://api.example.com', false],
  ])('%j: %s', (candidate, accepted) => {
    expect(httpBaseUrlPattern.test(candidate)).toBe(accepted);
  });
});

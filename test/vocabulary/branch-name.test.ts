import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import committed from '../../lib/openapi/openapi.json' with { type: 'json' };
import { isValidBranchName } from '../../lib/vocabulary/branch-name.ts';

/**
 * git runs outside any repository: inside one, `--branch` first expands
 * `@{-N}` to the branch checked out N switches ago, so its answer would
 * depend on that repository's history rather than on the name.
 */
const outsideRepo = mkdtempSync(join(tmpdir(), 'branch-name-'));
afterAll(() => rmSync(outsideRepo, { recursive: true, force: true }));

function gitAccepts(name: string): boolean {
  const result = spawnSync('git', ['check-ref-format', '--branch', name], {
    cwd: outsideRepo,
    env: { ...process.env, GIT_CEILING_DIRECTORIES: dirname(outsideRepo), LC_ALL: 'C' },
    stdio: 'ignore',
  });
  if (result.error) throw result.error;
  if (result.status !== 0 && result.status !== 128) throw new Error(`git check-ref-format exited with ${result.status} for ${JSON.stringify(name)}`);
  return result.status === 0;
}

/** Pieces that git's ref rules treat specially, to be mixed with ordinary text. */
const risky = [
  '.',
  '..',
  '/',
  '//',
  '@',
  '@{',
  '{',
  '}',
  '~',
  '^',
  ':',
  '?',
  '*',
  '[',
  '\\',
  '-',
  ' ',
  '.lock',
  'lock',
  'HEAD',
  '\t',
  '\n',
  '\u0001',
  '\u001f',
  '\u007f',
  '\u0080',
  '\u009f',
  'é',
  'ß',
  '日本',
  '🙂',
  '\u00a0',
  '\u200b',
];
const piece = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...risky) },
  { weight: 2, arbitrary: fc.stringMatching(/^[a-zA-Z0-9_]{1,4}$/) },
  // Any character but NUL, which no process argument can hold (graphemes: no lone surrogates, which are not text).
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 2 }).filter((s) => !s.includes('\u0000')) },
);
const branchName = fc.array(piece, { minLength: 1, maxLength: 8 }).map((parts) => parts.join(''));

describe('isValidBranchName', () => {
  it('agrees with git check-ref-format --branch on generated names', () => {
    // A git process per name, about 5 ms each alone and several times that on a busy machine: 150 runs. About a third of the names are valid.
    fc.assert(
      fc.property(branchName, (name) => {
        fc.pre(Buffer.byteLength(name) <= 255); // the 255-byte bound is ours, not git's
        expect(isValidBranchName(name), JSON.stringify(name)).toBe(gitAccepts(name));
      }),
      { numRuns: 150 },
    );
  });

  it.each(['main', 'feature/login', 'release/2024.1', 'a./b', 'a/@', '@', 'a@b', 'x{y}', 'lock', 'v1.0-rc', 'user/ß/日本', 'refs/heads/x', 'emoji-🙂'])(
    'accepts %j, as git does',
    (name) => {
      expect(isValidBranchName(name)).toBe(true);
      expect(gitAccepts(name)).toBe(true);
    },
  );

  it.each([
    '',
    'HEAD',
    '-x',
    'a..b',
    'a b',
    'a~1',
    'a^',
    'a:b',
    'a?',
    'a*',
    'a[b',
    'a\\b',
    'a\tb',
    'a\u007fb',
    '@{-1}',
    'a@{u}',
    '/a',
    'a/',
    'a//b',
    '.a',
    'a/.b',
    'a.',
    'a.lock',
    'a.lock/b',
    '.lock',
  ])('rejects %j, as git does', (name) => {
    expect(isValidBranchName(name)).toBe(false);
    expect(gitAccepts(name)).toBe(false);
  });

  it('bounds names to 255 bytes, counting UTF-8 bytes rather than characters', () => {
    expect(isValidBranchName('a'.repeat(255))).toBe(true);
    expect(isValidBranchName('a'.repeat(256))).toBe(false);
    expect(isValidBranchName('é'.repeat(127))).toBe(true); // 254 bytes
    expect(isValidBranchName('é'.repeat(128))).toBe(false); // 256 bytes in 128 characters
    expect(gitAccepts('a'.repeat(256))).toBe(true); // the bound is ours alone
  });
});

describe('the Service-Branch header in the OpenAPI document', () => {
  const parameters = Object.values(committed.paths).flatMap((methods) =>
    Object.values(methods as Record<string, { parameters: { name: string; schema: object }[] }>).flatMap((operation) => operation.parameters),
  );
  const schemas = parameters.filter((p) => p.name === 'Service-Branch').map((p) => JSON.stringify(p.schema));
  const documented = new Ajv2020().compile(JSON.parse(schemas[0]!));

  it('has one schema wherever the header is taken', () => {
    expect(schemas.length).toBeGreaterThan(0);
    expect(new Set(schemas).size).toBe(1);
  });

  it('accepts exactly the names isValidBranchName accepts, up to 255 bytes', () => {
    fc.assert(
      fc.property(branchName, (name) => {
        fc.pre(Buffer.byteLength(name) <= 255); // the document counts characters; its description states the byte bound
        expect(documented(name), JSON.stringify(name)).toBe(isValidBranchName(name));
      }),
      { numRuns: 5000 },
    );
    expect(documented('a'.repeat(256))).toBe(false);
  });
});

/**
 * The rules of ARCHITECTURE.md that code can check: which way imports point.
 * Each rule reads every import of the files it covers (static, re-exports
 * and `import()`), so a file added later is held to it as the first ones were.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');

function sourceFiles(folder: string): string[] {
  return readdirSync(join(root, folder), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.(ts|tsx)$/.test(entry.name))
    .map((entry) => relative(root, join(entry.parentPath, entry.name)));
}

/** What a file imports: bare specifiers as written, relative ones as paths from the project's root. */
function importsOf(file: string): string[] {
  const text = readFileSync(join(root, file), 'utf8');
  const specifiers = [
    ...text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'"]*?\bfrom\s*'([^']+)'|\bimport\(\s*'([^']+)'\s*\)|(?:^|\n)\s*import\s*'([^']+)'/g),
  ].map((m) => (m[1] ?? m[2] ?? m[3])!);
  return specifiers.map((s) => (s.startsWith('.') ? normalize(join(dirname(file), s)) : s));
}

/** `file → import` for each import of the files under `folder` that `refused` matches. */
const violations = (folder: string, refused: (target: string, file: string) => boolean) =>
  sourceFiles(folder).flatMap((file) => importsOf(file).flatMap((target) => (refused(target, file) ? [`${file} → ${target}`] : [])));

/** The adapters, and the code that wires them, which alone may hold AWS SDK clients. */
const awsAdapters = [
  /^lib\/store\/dynamo\//,
  /^lib\/tasks\/queue\.ts$/,
  /^lib\/schedules\/aws-scheduler\.ts$/,
  /^lib\/credentials\/kms-keyring\.ts$/,
  /^lib\/cli\//,
  /^lib\/local\//,
];

describe('dependency direction', () => {
  it('reads the imports it checks', () => {
    expect(importsOf('lib/http/endpoint.ts')).toContain('@middy/core');
    expect(importsOf('lib/http/endpoint.ts')).toContain('lib/store/index.ts');
  });

  it('lib imports neither the stack (cdk/) nor the functions', () => {
    expect(violations('lib', (target) => /^(cdk|functions)\//.test(target))).toEqual([]);
  });

  it('only adapters import AWS SDK clients', () => {
    expect(violations('lib', (target, file) => target.startsWith('@aws-sdk/') && !awsAdapters.some((adapter) => adapter.test(file)))).toEqual([]);
  });

  it('the engine is pure: nothing outside its folder but the numbers, no Node or AWS modules', () => {
    expect(
      violations('lib/engine', (target) => (target.startsWith('lib/') && !/^lib\/(engine|decimal)\//.test(target)) || /^(node:|@aws-sdk\/)/.test(target)),
    ).toEqual([]);
  });

  it('the numbers are pure and stand alone', () => {
    expect(violations('lib/decimal', (target) => !target.startsWith('lib/decimal/'))).toEqual([]);
  });

  it('the task machinery knows no task kind', () => {
    expect(violations('lib/tasks', (target) => /^lib\/(pull|workflows|replay)\//.test(target))).toEqual([]);
  });

  it('the logger imports no other area', () => {
    expect(violations('lib/logging', (target) => target.startsWith('lib/') && !target.startsWith('lib/logging/'))).toEqual([]);
  });
});

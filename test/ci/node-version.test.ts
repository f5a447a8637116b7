/**
 * The Node.js major is written in three places that must agree: the functions'
 * Lambda runtime (the one that counts), the major .ci/run installs to test on,
 * and package.json's engines. A runtime upgrade that misses one tests the code
 * on a Node it will not run on.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { lambdaTarget } from '../../cdk/bundling.ts';
import { functionRuntime } from '../../cdk/service-function.ts';

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
const runtimeMajor = functionRuntime.name.match(/^nodejs(\d+)\.x$/)?.[1];

describe('the Node.js major', () => {
  it('is the functions runtime major in .ci/run, engines and the bundles target', () => {
    expect(runtimeMajor).toMatch(/^\d+$/);
    expect(read('.ci/run').match(/^node_major=(\d+)$/m)?.[1]).toBe(runtimeMajor);
    expect((JSON.parse(read('package.json')) as { engines: { node: string } }).engines.node).toMatch(new RegExp(`^>=${runtimeMajor}\\.`));
    expect(lambdaTarget).toBe(`node${runtimeMajor}`);
  });
});

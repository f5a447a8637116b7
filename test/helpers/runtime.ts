/**
 * The whole local runtime (embedded DynamoDB, demo seed, HTTP server) for one
 * test file. vitest runs each file in its own worker, so the process.env the
 * runtime sets (TABLE_NAME, DYNAMODB_ENDPOINT) belongs to that file alone.
 */
import { afterAll, beforeAll } from 'vitest';
import type { LocalRuntimeOptions } from '../../lib/local/runtime.ts';
import { api, type Api } from './api.ts';

export type Runtime = Awaited<ReturnType<typeof import('../../lib/local/runtime.ts').startLocalRuntime>>;

/** Quiets the function logs, then starts the runtime on free ports. */
export async function startQuietRuntime(options: LocalRuntimeOptions = {}): Promise<Runtime> {
  process.env.POWERTOOLS_LOG_LEVEL ??= 'SILENT';
  // Imported only now, so that nothing reads the environment before it is set.
  const { startLocalRuntime } = await import('../../lib/local/runtime.ts');
  // The local OpenID provider only for the files that sign people in with it.
  return startLocalRuntime({ port: 0, dynamoPort: 0, openIdProvider: false, ...options });
}

export interface RuntimeFixture {
  runtime: Runtime;
  /** Requests with the demo workspace's key unless told otherwise. */
  api: Api;
}

/** Starts the runtime before the file's tests and stops it after them. */
export function useRuntime(options: LocalRuntimeOptions = {}): RuntimeFixture {
  const fixture = {} as RuntimeFixture;
  beforeAll(async () => {
    fixture.runtime = await startQuietRuntime(options);
    fixture.api = api(fixture.runtime);
  }, 30_000);
  afterAll(async () => {
    await fixture.runtime?.close();
  });
  return fixture;
}

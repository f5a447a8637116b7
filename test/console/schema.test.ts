/** The console's API types are generated from the OpenAPI document: a stale copy fails here (run `npm run openapi`). */
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { consoleSchemaPath, renderConsoleSchema } from '../../lib/openapi/console-types.ts';

it('lib/console/web/schema.ts is what the OpenAPI document generates', async () => {
  expect(readFileSync(consoleSchemaPath, 'utf8') === (await renderConsoleSchema()), 'stale console API types: run npm run openapi').toBe(true);
  // A bound on a hung test: rendering the types (openapi-typescript, then prettier) takes 15 s alone and twice that beside another suite.
}, 120_000);

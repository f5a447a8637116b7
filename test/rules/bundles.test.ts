/**
 * The execute function compiles published versions from the prepared form
 * kept with them, so its bundle must not hold the FEEL parser (about 75 KB
 * and 10 ms of start-up), nor must the scheduled-run function's. Bundled
 * here as the stack bundles it.
 */
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

/** The modules that put code into the bundle (esbuild reads more, and shakes out what nothing uses). */
const bundle = async (entry: string) => {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const [output] = Object.values(result.metafile.outputs);
  return Object.entries(output!.inputs).flatMap(([input, { bytesInOutput }]) => (bytesInOutput > 0 ? [input] : []));
};

describe('function bundles', () => {
  it('execute-entity holds the engine but not the FEEL parser, for rules and workflows alike', async () => {
    const inputs = await bundle('functions/execute-entity.ts');
    expect(inputs).toContain('lib/engine/compile.ts');
    expect(inputs).toContain('lib/workflows/runner.ts');
    expect(inputs.filter((i) => /lezer|engine\/feel\/parse\.ts|engine\/authoring\.ts|workflows\/validate\.ts|workflows\/draft\.ts/.test(i))).toEqual([]);
  });

  it('execute-entity builds only the request schemas it parses: not the test, step-test or paging ones', async () => {
    expect(
      (await bundle('functions/execute-entity.ts')).filter((i) => /rules\/(routes|test-schema)\.ts|workflows\/schema\.ts|http\/paging\.ts/.test(i)),
    ).toEqual([]);
  });

  it('execute-entity builds no workflow or credential schema: a run reads stored definitions, it does not validate them', async () => {
    expect(
      (await bundle('functions/execute-entity.ts')).filter((i) => /workflows\/definition\.ts|credentials\/schema\.ts|entities\/schema-parts\.ts/.test(i)),
    ).toEqual([]);
  });

  it('execute-entity and run-scheduled-rule count coverage with the counting alone: not the test coverage, nor the coverage report', async () => {
    for (const fn of ['execute-entity', 'run-scheduled-rule']) {
      const inputs = await bundle(`functions/${fn}.ts`);
      expect(inputs, fn).toContain('lib/tallies/coverage-counts.ts');
      expect(
        inputs.filter((i) => /coverage\/(?!counting\.ts)|engine\/test-cases\.ts/.test(i)),
        fn,
      ).toEqual([]);
    }
  });

  it('run-scheduled-rule, which loads and compiles as execute does, holds the engine but not the FEEL parser', async () => {
    const inputs = await bundle('functions/run-scheduled-rule.ts');
    expect(inputs).toContain('lib/engine/compile.ts');
    expect(inputs).toContain('lib/rules/load.ts');
    expect(inputs.filter((i) => /lezer|engine\/feel\/parse\.ts|engine\/authoring\.ts|client-scheduler|croner/.test(i))).toEqual([]);
  });

  it("get-entity, which shows a rule's stored schedule, holds neither the cron library nor the Scheduler client", async () => {
    expect((await bundle('functions/get-entity.ts')).filter((i) => /croner|client-scheduler|lib\/schedules\//.test(i))).toEqual([]);
  });

  it('delete-entity holds neither the FEEL parser nor the full zod of the record schema', async () => {
    expect((await bundle('functions/delete-entity.ts')).filter((i) => /lezer|engine\/feel\/parse|engine\/authoring|zod\/v4\/classic/.test(i))).toEqual([]);
  });

  it.each(['create-entity', 'update-entity', 'publish-entity', 'task-worker'])(
    '%s validates records with zod/mini and one locale, not the full zod',
    async (fn) => {
      expect((await bundle(`functions/${fn}.ts`)).filter((i) => /zod\/v4\/classic|zod\/v4\/locales\/(?!en\.js)/.test(i))).toEqual([]);
    },
  );

  it('replay-rule, which only queues the replay, holds neither the engine nor the FEEL parser', async () => {
    expect(
      (await bundle('functions/replay-rule.ts')).filter((i) =>
        /lezer|engine\/(compile|authoring|feel\/|decision-table\/)|rules\/(load|draft)\.ts|zod\/v4\/classic/.test(i),
      ),
    ).toEqual([]);
  });

  it('test-entity, which prepares drafts, does hold it', async () => {
    expect((await bundle('functions/test-entity.ts')).some((i) => i.includes('lezer-feel'))).toBe(true);
  });
});

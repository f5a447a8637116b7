/** Hand-written files beside their cases: each imports without a problem, and its table answers what `<name>.cases.json` says. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { compileRule, evaluateRule } from '../../lib/engine/index.ts';
import { prepareRule } from '../../lib/engine/prepare.ts';
import type { Format } from '../../lib/interchange/format-contract.ts';
import { canonical } from './arbitrary.ts';

/** The files of a folder that have cases beside them, by name. */
export const filesWithCases = (folder: string, extension: string) =>
  readdirSync(folder)
    .filter((name) => name.endsWith(extension) && readdirSync(folder).includes(name.replace(extension, '.cases.json')))
    .sort();

export async function expectFileAnswersItsCases(format: Format, folder: string, name: string, extension: string) {
  const reading = await format.read(readFileSync(join(folder, name)), name);
  expect(reading.problems).toEqual([]);
  expect(reading.records).toHaveLength(1);
  const entity = canonical(reading.records[0]);
  if (entity.type !== 'decisionTable') throw new Error(`${name} is not a decision table`);
  const { prepared, problems } = prepareRule({ kind: 'decisionTable', definition: entity.definition });
  expect(problems).toEqual([]);
  const rule = compileRule(prepared);
  const cases = JSON.parse(readFileSync(join(folder, name.replace(extension, '.cases.json')), 'utf8')) as { params: unknown; expected: unknown }[];
  expect(cases.length).toBeGreaterThan(0);
  for (const { params, expected } of cases) expect({ params, output: evaluateRule(rule, params).output }).toEqual({ params, output: expected });
  return { entity, reading };
}

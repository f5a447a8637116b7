/**
 * Random decision tables for the round-trip properties of every format: every
 * hit policy (and the collect aggregations), every column type, and cells of
 * every kind (any value, empty, comparisons, ranges, lists, negations,
 * literals of each type, expressions with `?`, strings with quotes,
 * separators, line breaks and non-Latin text), with exact numbers a double
 * cannot hold. Each table is valid by the entity schema; `canonical` gives
 * the form the schema keeps, which a round trip must give back.
 */
import fc from 'fast-check';
import { parseNumber, type Num } from '../../lib/decimal/decimal.ts';
import { entityInputSchema, type EntityInput } from '../../lib/entities/schema.ts';
import { aggregations, hitPolicies } from '../../lib/engine/definitions.ts';

/** A FEEL string literal of any text. */
export const feelString = (text: string) =>
  `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n').replace(/\r/g, '\\r').replace(/\t/g, '\\t')}"`;

/** Text people write: any characters but control characters, with the awkward ones (quotes, separators, XML's specials) more often. */
const awkward = fc.constantFrom('"', "'", ',', ';', '\\', '<', '>', '&', '=', '-', ' ', 'é', 'ß', '日本', '€', '🙂', '|', ':', '[', ']', '.');
const plainText = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.array(fc.oneof(awkward, fc.string({ maxLength: 3 })), { maxLength: 6 }).map((parts) => parts.join('')),
);
const peopleText = (minLength = 0) =>
  plainText.map((s) => s.replace(/[\u0000-\u001f\u007f-\u009f]/g, '')).filter((s) => s.length >= minLength && s.length <= 200);
/** Text inside a FEEL string: may hold line breaks and tabs, which a literal escapes. */
const stringContent = fc.oneof(peopleText(), fc.constantFrom('a\nb', 'tab\there', 'a"b', 'back\\slash', ''));

const identifier = fc.stringMatching(/^[a-z][A-Za-z0-9]{0,10}$/);
export const entityIdArb = fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9._-]{0,20}$/).filter((id) => id !== 'import');

const decimalNumber: fc.Arbitrary<Num> = fc
  .tuple(fc.boolean(), fc.bigInt({ min: 1n, max: 10n ** 30n }), fc.integer({ min: 0, max: 20 }))
  .map(([negative, digits, scale]) => {
    const text = digits.toString().padStart(scale + 1, '0');
    return parseNumber(`${negative ? '-' : ''}${text.slice(0, text.length - scale)}${scale ? `.${text.slice(-scale)}` : ''}`)!;
  });
const smallNumber = fc.oneof(
  fc.integer({ min: -1000, max: 100_000 }),
  fc.tuple(fc.integer({ min: -1e7, max: 1e7 }), fc.integer({ min: 1, max: 6 })).map(([n, scale]) => Number((n / 10 ** scale).toPrecision(10))),
);
const numberValue = fc.oneof(smallNumber, decimalNumber);
const numberText = numberValue.map((n) => String(n));
const dateText = fc.date({ min: new Date('1900-01-01'), max: new Date('2200-12-31'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));

/** A cell of unary tests, any kind. */
const cell = fc.oneof(
  fc.constantFrom('-', '', 'null', 'true', 'false', '?', 'not(null)'),
  numberText,
  numberText.map((n) => `< ${n}`),
  numberText.map((n) => `>= ${n}`),
  fc.tuple(numberText, numberText).map(([a, b]) => `[${a}..${b}]`),
  fc.tuple(numberText, numberText).map(([a, b]) => `(${a}..${b}]`),
  fc.array(numberText, { minLength: 1, maxLength: 3 }).map((list) => list.join(', ')),
  stringContent.map(feelString),
  fc.array(stringContent, { minLength: 2, maxLength: 3 }).map((list) => list.map(feelString).join(',')),
  stringContent.map((s) => `not(${feelString(s)})`),
  dateText.map((d) => `date("${d}")`),
  dateText.map((d) => `>= date("${d}")`),
  fc.constantFrom('? > 10 and ? < 20', 'contains(?, "x")', 'count(?) > 2', 'duration("P1D")', '@"2025-01-31"'),
);

/** An output entry: a JSON value or FEEL text. */
const outputEntry = fc.oneof(
  numberValue,
  fc.boolean(),
  fc.constant(null),
  stringContent.map(feelString),
  fc.constantFrom('amount * 0.1', 'if x > 1 then "a" else "b"', 'date("2025-01-31")', '[1, 2, 3]', '{a: 1, "b c": "d"}', '"-"', '""'),
);

const valueType = fc.constantFrom('number', 'string', 'boolean', 'date', 'datetime', 'time', 'duration', 'list', 'context');
const allowedValue = fc.oneof(
  stringContent.filter((s) => s.length <= 50),
  numberValue,
  fc.boolean(),
);

const inputColumn = fc.record(
  {
    id: entityIdArb,
    label: peopleText(),
    expression: fc.oneof(
      identifier,
      identifier.map((a) => `${a}.amount`),
      fc.constantFrom('customer.type', 'age + 1', 'string length(name)', '"x"'),
    ),
    type: valueType,
  },
  { requiredKeys: ['id', 'expression', 'type'] },
);

const outputColumn = fc.record(
  {
    id: entityIdArb,
    label: peopleText(),
    name: identifier,
    type: valueType,
    allowedValues: fc.uniqueArray(allowedValue, { minLength: 1, maxLength: 4, selector: (v) => JSON.stringify(v) }),
    default: outputEntry,
  },
  { requiredKeys: ['id', 'name', 'type'] },
);

const uniqueBy = <T>(items: T[], key: (item: T) => string) => items.filter((item, i) => items.findIndex((other) => key(other) === key(item)) === i);

const extras = fc.record(
  {
    parameters: fc.array(fc.record({ name: identifier, type: valueType }), { maxLength: 3 }).map((list) => uniqueBy(list, (p) => p.name)),
    tests: fc.array(
      fc.record({
        name: peopleText(1),
        params: fc.dictionary(identifier, fc.oneof(fc.integer(), fc.string())),
        expected: fc.oneof(fc.integer(), fc.string(), fc.boolean(), fc.constant(null), fc.dictionary(identifier, fc.oneof(numberValue, fc.string()))),
      }),
      {
        maxLength: 2,
      },
    ),
    settings: fc.record({ recordExecutions: fc.boolean(), timezone: fc.constantFrom('Europe/Berlin', 'UTC') }, { requiredKeys: [] }),
  },
  { requiredKeys: [] },
);

/** A random decision table entity, valid by the entity schema (not necessarily by the engine's checks). */
export const decisionTableArb: fc.Arbitrary<EntityInput> = fc
  .record({
    id: entityIdArb,
    name: peopleText(1)
      .map((s) => s.trim())
      .filter((s) => s.length > 0),
    description: peopleText(),
    tags: fc.uniqueArray(
      peopleText(1).filter((s) => s.length <= 64),
      { maxLength: 3 },
    ),
    hitPolicy: fc.constantFrom(...hitPolicies),
    aggregation: fc.option(fc.constantFrom(...aggregations), { nil: undefined }),
    inputs: fc.array(inputColumn, { minLength: 1, maxLength: 4 }).map((list) => uniqueBy(list, (c) => c.id)),
    outputs: fc.array(outputColumn, { minLength: 1, maxLength: 3 }).map((list) =>
      uniqueBy(
        uniqueBy(list, (c) => c.id),
        (c) => c.name,
      ),
    ),
    rows: fc.array(
      fc.record(
        {
          id: entityIdArb,
          description: peopleText(),
          when: fc.array(cell, { minLength: 4, maxLength: 4 }),
          then: fc.array(outputEntry, { minLength: 3, maxLength: 3 }),
        },
        { requiredKeys: ['when', 'then'] },
      ),
      { maxLength: 6 },
    ),
    extras,
  })
  .map(({ id, name, description, tags, hitPolicy, aggregation, inputs, outputs, rows, extras }) =>
    canonical({
      id,
      name,
      description,
      tags,
      type: 'decisionTable',
      definition: {
        hitPolicy,
        ...(hitPolicy === 'collect' && aggregation && { aggregation }),
        // Fresh objects of the known fields only: nothing a format does to the table it is given can reach the generator's values.
        inputs: inputs.map(({ id, label, expression, type }) => ({ id, ...(label !== undefined && { label }), expression, type })),
        outputs: outputs.map(({ id, label, name, type, allowedValues, default: fallback }) => ({
          id,
          ...(label !== undefined && { label }),
          name,
          type,
          ...(allowedValues && { allowedValues: [...allowedValues] }),
          ...(fallback !== undefined && { default: fallback }),
        })),
        rules: rows
          .filter((row, i) => row.id === undefined || rows.findIndex((other) => other.id === row.id) === i)
          .map(({ id, description, when, then }) => ({
            ...(id !== undefined && { id }),
            ...(description !== undefined && { description }),
            when: when.slice(0, inputs.length),
            then: then.slice(0, outputs.length),
          })),
        ...extras,
      },
    }),
  );

/** The form the entity schema keeps (defaults filled, output entries canonical): what a round trip must give back. */
export function canonical(record: unknown): EntityInput {
  const parsed = entityInputSchema.safeParse(record);
  if (!parsed.success) throw new Error(`not a valid entity: ${JSON.stringify(parsed.error.issues.slice(0, 3))}`);
  return parsed.data;
}

import { describe, expect, it } from 'vitest';
import { getQuerySchema, legacyListQuerySchema, listQuerySchema } from '../../lib/entities/queries.ts';
import { ApiError } from '../../lib/vocabulary/errors.ts';
import { parseInput } from '../../lib/http/input.ts';

/** The 400 that parseInput throws, or a failure when it parses. */
function rejection(schema: Parameters<typeof parseInput>[0], value: unknown): ApiError {
  try {
    parseInput(schema, value, 'query');
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return error as ApiError;
  }
  throw new Error(`${JSON.stringify(value)} was accepted`);
}

const issues = (error: ApiError) => (error.data as { errors: { in: string; field: string; message: string }[] }).errors;

describe('list query (legacy)', () => {
  it('defaults to page 1 of 10 without filters', () => {
    expect(parseInput(legacyListQuerySchema, {}, 'query')).toEqual({ pageNo: 1, pageSize: 10 });
  });

  it('coerces numeric strings and keeps the filters', () => {
    expect(parseInput(legacyListQuerySchema, { pageNo: '3', pageSize: '100', name: 'Cost', type: 'ruleSet' }, 'query')).toEqual({
      pageNo: 3,
      pageSize: 100,
      name: 'Cost',
      type: 'ruleSet',
    });
  });

  it('treats an empty filter as no filter', () => {
    expect(parseInput(legacyListQuerySchema, { name: '', type: '' }, 'query')).toEqual({ pageNo: 1, pageSize: 10 });
  });

  it('ignores parameters it does not know, such as the v1 ones', () => {
    expect(parseInput(legacyListQuerySchema, { status: 'bogus', sortBy: 'nope', sortDir: 'up', other: 'x' }, 'query')).toEqual({
      pageNo: 1,
      pageSize: 10,
    });
  });

  it.each([
    ['pageNo', '0'],
    ['pageNo', '-1'],
    ['pageNo', '1.5'],
    ['pageNo', 'abc'],
    ['pageNo', '1000001'],
    ['pageSize', '0'],
    ['pageSize', '101'],
    ['pageSize', '2.5'],
    ['pageSize', 'ten'],
    ['pageSize', 'Infinity'],
  ])('rejects %s=%j as a field issue of the query', (field, value) => {
    const error = rejection(legacyListQuerySchema, { [field]: value });
    expect(error).toMatchObject({ status: 400, code: 'invalid_request' });
    expect(issues(error)).toEqual([
      { in: 'query', field, message: field === 'pageNo' ? 'must be an integer from 1 to 1000000' : 'must be an integer from 1 to 100' },
    ]);
  });

  it('accepts the bounds themselves', () => {
    expect(parseInput(legacyListQuerySchema, { pageNo: '1', pageSize: '1' }, 'query')).toMatchObject({ pageNo: 1, pageSize: 1 });
    expect(parseInput(legacyListQuerySchema, { pageNo: '1000000', pageSize: '100' }, 'query')).toMatchObject({ pageNo: 1_000_000, pageSize: 100 });
  });

  it('reports every bad field at once', () => {
    const error = rejection(legacyListQuerySchema, { pageNo: '0', pageSize: '1000', name: 'x'.repeat(201) });
    expect(
      issues(error)
        .map((i) => i.field)
        .sort(),
    ).toEqual(['name', 'pageNo', 'pageSize']);
    expect(issues(error).every((i) => i.in === 'query' && i.message.length > 0)).toBe(true);
    for (const field of ['pageNo', 'pageSize', 'name']) expect(error.message).toContain(`${field}: `);
  });
});

describe('list query (v1)', () => {
  it('adds status and sorting, with name ascending by default', () => {
    expect(parseInput(listQuerySchema, {}, 'query')).toEqual({ pageNo: 1, pageSize: 10, sortBy: 'name', sortDir: 'asc' });
    expect(parseInput(listQuerySchema, { status: 'draft', sortBy: 'updatedAt', sortDir: 'desc' }, 'query')).toEqual({
      pageNo: 1,
      pageSize: 10,
      status: 'draft',
      sortBy: 'updatedAt',
      sortDir: 'desc',
    });
  });

  it.each([
    ['status', 'Draft'],
    ['status', 'archived'],
    ['sortBy', 'id'],
    ['sortDir', 'ascending'],
  ])('rejects %s=%j', (field, value) => {
    const error = rejection(listQuerySchema, { [field]: value });
    expect(issues(error)).toHaveLength(1);
    expect(issues(error)[0]).toMatchObject({ in: 'query', field });
    expect(issues(error)[0]!.message).toMatch(/\S/);
  });
});

describe('get query', () => {
  it('takes no version, or a published version label', () => {
    expect(parseInput(getQuerySchema, {}, 'query')).toEqual({});
    expect(parseInput(getQuerySchema, { version: 'v12' }, 'query')).toEqual({ version: 'v12' });
  });

  it.each(['v0', '1', 'V1', 'v', 'v1.0', 'latest', 'v01', 'v1234567890'])('rejects version=%j', (version) => {
    const error = rejection(getQuerySchema, { version });
    expect(issues(error)).toEqual([{ in: 'query', field: 'version', message: expect.stringContaining('version label such as v1') }]);
  });
});

describe('parseInput', () => {
  it('names the location itself when the whole value is wrong', () => {
    const error = rejection(legacyListQuerySchema, 'not an object');
    expect(issues(error)).toEqual([{ in: 'query', field: 'query', message: expect.any(String) }]);
  });
});

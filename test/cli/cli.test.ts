/** The operator CLI against an embedded DynamoDB: every command, and its refusals. */
import { mkdtempSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { hashApiKey } from '../../lib/auth/api-key.ts';
import { main, runCli, UsageError } from '../../lib/cli/main.ts';
import { ImportRejected } from '../../lib/publishing/import.ts';
import { addClientPlugin } from '../../lib/store/dynamo/client.ts';
import type { Store } from '../../lib/store/index.ts';
import { simpleRule, workflow } from '../helpers/entities.ts';
import { useEmbeddedStore } from '../helpers/store.ts';
import { closedPort } from '../outbound/servers.ts';

const fixture = useEmbeddedStore('cli-test');
let store: Store;
let target: string[];
let cli: (...args: string[]) => Promise<string>;

beforeAll(() => {
  ({ store } = fixture);
  target = ['--endpoint', fixture.dynamo.endpoint, '--table', fixture.config.tableName];
  cli = (...args) => runCli([...args, ...target], {});
});

/** What the `rules` command prints on standard error, and its exit code. */
async function rules(...args: string[]) {
  const stderr: unknown[] = [];
  const printed = vi.spyOn(console, 'error').mockImplementation((line) => void stderr.push(line));
  try {
    await main(args);
    return { stderr: stderr.join('\n'), exitCode: process.exitCode };
  } finally {
    printed.mockRestore();
    process.exitCode = undefined;
  }
}

describe('workspaces and branches', () => {
  const acme = ['workspace', 'create', 'acme', '--name', 'Acme', '--default-branch', 'trunk'];

  it('creates a workspace with its default branch; the same create again answers it', async () => {
    const created = JSON.parse(await cli(...acme));
    expect(created).toMatchObject({ id: 'acme', name: 'Acme', defaultBranch: 'trunk' });
    expect(JSON.parse(await cli(...acme))).toEqual(created);
    expect(JSON.parse(await cli('branch', 'list', 'acme')).map((b: { name: string }) => b.name)).toEqual(['trunk']);
  });

  it('refuses a create asking for another name or default branch than the workspace has, and changes nothing', async () => {
    const stored = await store.getWorkspace('acme');
    await expect(cli('workspace', 'create', 'acme', '--name', 'Acme Corp', '--default-branch', 'trunk')).rejects.toThrow(
      'workspace "acme" already exists, with name "Acme" (not "Acme Corp"): nothing changed',
    );
    // Without --name the name asked for is the id, as it would be for a new workspace.
    await expect(cli('workspace', 'create', 'acme')).rejects.toThrow(
      'workspace "acme" already exists, with name "Acme" (not "acme") and default branch "trunk" (not "main"): nothing changed',
    );
    await expect(cli('workspace', 'create', 'acme', '--name', 'Acme', '--default-branch', 'main')).rejects.toThrow(
      /with default branch "trunk" \(not "main"\)/,
    );
    expect(await store.getWorkspace('acme')).toEqual(stored);
    expect(JSON.parse(await cli('branch', 'list', 'acme')).map((b: { name: string }) => b.name)).toEqual(['trunk']);
    expect(await rules('workspace', 'create', 'acme', '--name', 'Acme Corp', '--default-branch', 'trunk', ...target)).toEqual({
      stderr: 'rules: workspace "acme" already exists, with name "Acme" (not "Acme Corp"): nothing changed',
      exitCode: 1,
    });
  });

  it('lists every workspace by id, reading the table page after page', async () => {
    await cli('workspace', 'create', 'zeta', '--name', 'Zeta');
    await cli('workspace', 'create', 'beta');
    // A Scan page of one item, so that the three workspaces (and the branches between them) take many pages.
    let scans = 0;
    const remove = addClientPlugin({
      applyToStack: (stack) =>
        stack.add(
          (next, context) => (args) => {
            if (context.commandName === 'ScanCommand') {
              scans++;
              (args.input as { Limit?: number }).Limit = 1;
            }
            return next(args);
          },
          { step: 'initialize', name: 'scanPagesOfOne' },
        ),
    });
    try {
      const listed = JSON.parse(await cli('workspace', 'list'));
      expect(listed.map((w: { id: string; name: string; defaultBranch: string }) => [w.id, w.name, w.defaultBranch])).toEqual([
        ['acme', 'Acme', 'trunk'],
        ['beta', 'beta', 'main'],
        ['zeta', 'Zeta', 'main'],
      ]);
      expect(scans).toBeGreaterThan(3);
    } finally {
      remove();
    }
  });

  it('adds branches, refusing names git would refuse and unknown workspaces', async () => {
    await cli('branch', 'add', 'acme', 'feature/pricing');
    expect(JSON.parse(await cli('branch', 'list', 'acme')).map((b: { name: string }) => b.name)).toEqual(['feature/pricing', 'trunk']);
    await expect(cli('branch', 'add', 'acme', 'bad..name')).rejects.toThrow(/not a valid branch name/);
    await expect(cli('branch', 'add', 'nobody', 'main')).rejects.toThrow(/no workspace "nobody"/);
    await expect(cli('workspace', 'create', 'Not Valid')).rejects.toThrow(/not a valid workspace id/);
  });
});

describe('API keys', () => {
  it('prints a new key once and keeps only its hash', async () => {
    const output = await cli('key', 'create', 'acme', '--label', 'ci', '--expires-at', '2030-01-01');
    const key = /API key \(shown once, keep it secret\): (\S+)/.exec(output)?.[1];
    expect(key).toMatch(/^rsk_[A-Za-z0-9_-]{43}$/);
    const stored = await store.getApiKeyByHash(hashApiKey(key!));
    expect(stored).toMatchObject({ workspaceId: 'acme', label: 'ci', expiresAt: '2030-01-01T00:00:00.000Z' });
    const listed = await cli('key', 'list', 'acme');
    expect(listed).not.toContain(key!);
    expect(listed).not.toContain(hashApiKey(key!));
    expect(JSON.parse(listed)).toEqual([expect.objectContaining({ keyId: stored!.keyId, label: 'ci' })]);
  });

  it('makes a key with a role, an owner and branches; admin by default, as keys made before roles are', async () => {
    await cli('branch', 'add', 'acme', 'staging');
    const record = JSON.parse(
      (await cli('key', 'create', 'acme', '--role', 'executor', '--owner', 'checkout', '--branches', 'staging')).split('\nAPI key')[0]!,
    );
    expect(record).toMatchObject({ role: 'executor', owner: 'checkout', branches: ['staging'] });
    expect(JSON.parse((await cli('key', 'create', 'acme')).split('\nAPI key')[0]!)).toMatchObject({ role: 'admin' });
    await expect(cli('key', 'create', 'acme', '--role', 'root')).rejects.toThrow(/"root" is not a role/);
    await expect(cli('key', 'create', 'acme', '--branches', 'nope')).rejects.toThrow(/no branch "nope"/);
  });

  it('revokes and expires keys by id, within their workspace only', async () => {
    const { keyId } = JSON.parse((await cli('key', 'create', 'acme')).split('\nAPI key')[0]!);
    expect(JSON.parse(await cli('key', 'expire', 'acme', keyId, '--at', '2020-05-01'))).toMatchObject({ keyId, expiresAt: '2020-05-01T00:00:00.000Z' });
    expect(JSON.parse(await cli('key', 'revoke', 'acme', keyId)).revokedAt).toBeTruthy();
    await cli('workspace', 'create', 'other');
    await expect(cli('key', 'revoke', 'other', keyId)).rejects.toThrow(/has no key/);
    await expect(cli('key', 'expire', 'acme', keyId, '--at', 'someday')).rejects.toThrow(/not a date/);
  });
});

describe('import', () => {
  const dir = mkdtempSync(join(tmpdir(), 'rules-cli-'));
  mkdirSync(join(dir, 'rules'));
  mkdirSync(join(dir, 'workflows'));
  writeFileSync(join(dir, 'rules', 'one.json'), JSON.stringify(simpleRule('one', 'One')));
  writeFileSync(join(dir, 'rules', 'more.json'), JSON.stringify([simpleRule('two', 'Two'), simpleRule('three', 'Three')]));
  writeFileSync(join(dir, 'rules', 'notes.txt'), 'not a record');
  writeFileSync(join(dir, 'workflows', 'flow.json'), JSON.stringify(workflow('flow', 'Flow')));

  it('imports a directory tree of JSON records, publishing them, and re-imports as unchanged', async () => {
    const first = await cli('import', 'acme', 'trunk', dir, '--publish');
    expect(first.split('\n').map((line) => line.split(/\s+/).slice(0, 4).join(' '))).toEqual([
      'created rule two (v1)',
      'created rule three (v1)',
      'created rule one (v1)',
      'created workflow flow (v1)',
    ]);
    expect(await cli('import', 'acme', 'trunk', join(dir, 'rules', 'one.json'))).toMatch(/^unchanged rule one/);
    const page = await store.listEntities({
      workspaceId: 'acme',
      branch: 'trunk',
      entityType: 'rule',
      pageNo: 1,
      pageSize: 10,
      sortBy: 'name',
      sortDir: 'asc',
    });
    expect(page.totalCount).toBe(3);
  });

  it('resolves relative paths from the folder the user ran it in (INIT_CWD, which npm sets)', async () => {
    const target = ['--endpoint', fixture.dynamo.endpoint, '--table', fixture.config.tableName];
    const output = await runCli(['import', 'acme', 'trunk', 'rules/one.json', ...target], { INIT_CWD: dir });
    expect(output).toMatch(/^unchanged rule one/);
  });

  it('imports the example folder docs/cli.md uses, rules and workflows alike', async () => {
    const examples = fileURLToPath(new URL('../../lib/cli/examples', import.meta.url));
    const output = await cli('import', 'acme', 'trunk', examples, '--publish');
    expect(output.split('\n').map((line) => line.split(/\s+/).slice(0, 4).join(' '))).toEqual([
      'created rule gift-wrap (v1)',
      'created rule parcel-size (v1)',
      'created workflow parcel-dispatch (v1)',
    ]);
  });

  it('writes nothing when any record is invalid, naming each problem', async () => {
    const bad = join(dir, 'bad');
    mkdirSync(bad);
    writeFileSync(join(bad, 'a.json'), JSON.stringify(simpleRule('four', 'Four')));
    writeFileSync(join(bad, 'b.json'), JSON.stringify({ id: 'five', name: '', type: 'simpleRule', definition: {} }));
    const error = await cli('import', 'acme', 'trunk', bad).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImportRejected);
    expect((error as ImportRejected).problems.map((p) => `${p.origin.split('/').pop()} ${p.field}`)).toEqual([
      'b.json name',
      'b.json definition.when',
      'b.json definition.then',
    ]);
    expect(await store.getEntity({ workspaceId: 'acme', branch: 'trunk', entityType: 'rule', id: 'four' })).toBeUndefined();
    writeFileSync(join(bad, 'c.json'), '{ not json');
    await expect(cli('import', 'acme', 'trunk', join(bad, 'c.json'))).rejects.toThrow(/c\.json: not valid JSON/);
    await expect(cli('import', 'acme', 'nope', dir)).rejects.toThrow(/has no branch "nope"/);
  });
});

describe('rule import and export', () => {
  const dir = mkdtempSync(join(tmpdir(), 'rules-cli-files-'));
  const files = fileURLToPath(new URL('../interchange/files', import.meta.url));

  it('imports a folder of DMN, Excel, CSV and JDM files, each by its extension, and a second import changes nothing', async () => {
    const folder = join(dir, 'mixed');
    mkdirSync(folder);
    const copies: [string, string][] = [
      ['dmn/hit-first.dmn', 'first.dmn'],
      ['xlsx/unique.xlsx', 'unique.xlsx'],
      ['csv/shipping.csv', 'shipping.csv'],
      ['jdm/grades-unique.json', 'grades.json'],
    ];
    for (const [from, to] of copies) writeFileSync(join(folder, to), readFileSync(join(files, from)));
    writeFileSync(join(folder, 'notes.txt'), 'not a table');
    const first = JSON.parse(await cli('rule', 'import', 'acme', 'trunk', folder));
    expect(first.problems).toEqual([]);
    expect(first.records.map((r: { action: string }) => r.action)).toEqual(['create', 'create', 'create', 'create']);
    const again = JSON.parse(await cli('rule', 'import', 'acme', 'trunk', folder));
    expect(again.records.map((r: { action: string }) => r.action)).toEqual(['unchanged', 'unchanged', 'unchanged', 'unchanged']);
  });

  it('exports a rule in each format, to a file that imports back as the same rule', async () => {
    const [table] = JSON.parse(await cli('rule', 'import', 'acme', 'trunk', join(files, 'csv/shipping.csv'), '--dry-run')).records;
    for (const format of ['dmn', 'xlsx', 'csv', 'jdm']) {
      const out = join(dir, `export.${format === 'jdm' ? 'json' : format}`);
      expect(await cli('rule', 'export', 'acme', 'trunk', table.id, '--format', format, '--out', out)).toMatch(new RegExp(`^wrote ${out} \\(\\d+ bytes`));
      const back = JSON.parse(await cli('rule', 'import', 'acme', 'trunk', out, '--dry-run'));
      expect(back.records).toEqual([expect.objectContaining({ id: table.id, action: 'unchanged' })]);
    }
    await expect(cli('rule', 'export', 'acme', 'trunk', table.id, '--format', 'pdf')).rejects.toThrow(UsageError);
  });

  it('replaces a draft only with its checksum, and prints every problem of a file it refuses', async () => {
    const shipping = join(files, 'csv/shipping.csv');
    const [record] = JSON.parse(await cli('rule', 'import', 'acme', 'trunk', shipping, '--dry-run')).records;
    const ref = { workspaceId: 'acme', branch: 'trunk', entityType: 'rule' as const, id: record.id };
    const draft = await store.getEntity(ref);
    // The same file name (the CSV's rule id), with another hit policy, then one it does not know.
    mkdirSync(join(dir, 'edited'));
    mkdirSync(join(dir, 'broken'));
    const edited = join(dir, 'edited', 'shipping.csv');
    const broken = join(dir, 'broken', 'shipping.csv');
    writeFileSync(edited, `Hit policy,any\r\n${readFileSync(shipping, 'utf8')}`);
    writeFileSync(broken, `Hit policy,sometimes\r\n${readFileSync(shipping, 'utf8')}`);
    await expect(cli('rule', 'import', 'acme', 'trunk', edited)).rejects.toThrow(/send the draft's checksum/);
    expect(JSON.parse(await cli('rule', 'import', 'acme', 'trunk', edited, '--checksum', draft!.checksum)).records[0].action).toBe('replace');
    const { stderr, exitCode } = await rules('rule', 'import', 'acme', 'trunk', broken, ...target);
    expect(exitCode).toBe(1);
    expect(stderr).toMatch(/^rules: import_refused: Nothing was imported[^\n]*\n {2}\S*broken\/shipping\.csv/);
  });
});

describe('authoring', () => {
  const dir = mkdtempSync(join(tmpdir(), 'rules-cli-authoring-'));
  const record = {
    id: 'fee',
    name: 'Fee',
    type: 'simpleRule',
    definition: { when: 'total >= 50', then: { fee: 0 }, otherwise: { fee: 5 }, tests: [{ name: 'big', params: { total: 60 }, expected: { fee: 0 } }] },
  };
  writeFileSync(join(dir, 'fee.json'), JSON.stringify(record));
  writeFileSync(join(dir, 'rename.json'), JSON.stringify({ name: 'Delivery fee' }));
  writeFileSync(join(dir, 'broken.json'), JSON.stringify({ definition: { when: 'total >', then: { fee: 0 } } }));
  writeFileSync(
    join(dir, 'failing.json'),
    JSON.stringify({ definition: { ...record.definition, tests: [{ name: 'wrong', params: { total: 60 }, expected: { fee: 9 } }] } }),
  );

  it('creates, edits with the checksum, publishes and deletes, as the API does', async () => {
    const created = JSON.parse(await cli('rule', 'create', 'acme', 'trunk', join(dir, 'fee.json')));
    // Its one test case takes the then branch: the save says the otherwise branch is untested, as the API's does.
    expect(created).toEqual({
      id: 'fee',
      checksum: expect.any(String),
      warnings: [{ path: 'definition.otherwise', message: 'the otherwise branch is not reached by any test case' }],
    });
    expect(JSON.parse(await cli('rule', 'create', 'acme', 'trunk', join(dir, 'fee.json')))).toEqual(created);
    await expect(cli('rule', 'update', 'acme', 'trunk', 'fee', join(dir, 'rename.json'), '--checksum', 'stale')).rejects.toMatchObject({
      code: 'checksum_mismatch',
    });
    await expect(cli('rule', 'update', 'acme', 'trunk', 'fee', join(dir, 'rename.json'))).rejects.toThrow(UsageError);
    const renamed = JSON.parse(await cli('rule', 'update', 'acme', 'trunk', 'fee', join(dir, 'rename.json'), '--checksum', created.checksum));
    expect(renamed.checksum).not.toBe(created.checksum);
    await expect(cli('rule', 'update', 'acme', 'trunk', 'fee', join(dir, 'broken.json'), '--checksum', renamed.checksum)).rejects.toThrow(
      /definition\.when: the expression is incomplete at line 1, column/,
    );
    await expect(cli('rule', 'publish', 'acme', 'trunk', 'fee', '--checksum', created.checksum)).rejects.toMatchObject({ code: 'checksum_mismatch' });
    expect(JSON.parse(await cli('rule', 'publish', 'acme', 'trunk', 'fee'))).toEqual({ version: 'v1', checksum: renamed.checksum, created: true });
    const failing = JSON.parse(await cli('rule', 'update', 'acme', 'trunk', 'fee', join(dir, 'failing.json'), '--checksum', renamed.checksum));
    await expect(cli('rule', 'publish', 'acme', 'trunk', 'fee', '--checksum', failing.checksum)).rejects.toMatchObject({ code: 'tests_failed' });
    expect(JSON.parse(await cli('rule', 'delete', 'acme', 'trunk', 'fee'))).toEqual({ id: 'fee', deleted: true });
    expect(JSON.parse(await cli('rule', 'delete', 'acme', 'trunk', 'fee'))).toEqual({ id: 'fee', deleted: false });
    expect(await store.getEntity({ workspaceId: 'acme', branch: 'trunk', entityType: 'rule', id: 'fee' })).toBeUndefined();
  });

  it('refuses to delete a rule that has a schedule, which only the API can remove, and changes nothing', async () => {
    await cli('rule', 'create', 'acme', 'trunk', join(dir, 'fee.json'));
    const scope = { workspaceId: 'acme', branch: 'trunk', ruleId: 'fee' };
    const schedule = {
      unit: 'day' as const,
      isEnabled: true,
      timezone: 'UTC',
      spec: { minute: '0', hour: '0', dayOfMonth: '*', month: '*', dayOfWeek: '*' },
      inputParam: {},
    };
    await store.putSchedule(scope, { schedule, expression: 'cron(0 0 * * ? *)', state: 'deployed', revision: 1, updatedAt: new Date().toISOString() }, 0);
    await expect(cli('rule', 'delete', 'acme', 'trunk', 'fee')).rejects.toThrow(/has a schedule on trunk, which only the API can remove/);
    expect(await store.getEntity({ workspaceId: 'acme', branch: 'trunk', entityType: 'rule', id: 'fee' })).toBeDefined();
    expect(await store.getSchedule(scope)).toMatchObject({ state: 'deployed' });
    await store.deleteSchedule(scope, 1);
    expect(JSON.parse(await cli('rule', 'delete', 'acme', 'trunk', 'fee'))).toEqual({ id: 'fee', deleted: true });
  });

  it('does the same for workflows, checking the rules they run, and refuses unknown branches', async () => {
    writeFileSync(join(dir, 'flow.json'), JSON.stringify(workflow('cli-flow', 'CLI flow')));
    await expect(cli('workflow', 'create', 'acme', 'trunk', join(dir, 'flow.json'))).rejects.toThrow(
      /definition\.steps\[0\]\.ruleId: no rule "some-rule" on this branch/,
    );
    const definition = {
      start: 'check',
      steps: [
        { id: 'check', kind: 'rule', ruleId: 'fee', next: 'done' },
        { id: 'done', kind: 'end' },
      ],
    };
    writeFileSync(join(dir, 'flow.json'), JSON.stringify(workflow('cli-flow', 'CLI flow', { definition } as never)));
    await cli('rule', 'create', 'acme', 'trunk', join(dir, 'fee.json'));
    await cli('rule', 'publish', 'acme', 'trunk', 'fee');
    expect(JSON.parse(await cli('workflow', 'create', 'acme', 'trunk', join(dir, 'flow.json')))).toMatchObject({ id: 'cli-flow' });
    expect(JSON.parse(await cli('workflow', 'publish', 'acme', 'trunk', 'cli-flow'))).toMatchObject({ version: 'v1' });
    await expect(cli('rule', 'create', 'acme', 'nope', join(dir, 'fee.json'))).rejects.toThrow(/has no branch "nope"/);
    await expect(cli('rule', 'frobnicate', 'acme', 'trunk')).rejects.toThrow(UsageError);
  });
});

describe('a DynamoDB that is not there', () => {
  it("says to start the local runtime, or which option names another table, when the local runtime's table is the target", async () => {
    const endpoint = `http://127.0.0.1:${await closedPort()}`;
    const explained = `nothing answers at ${endpoint}, the local runtime's DynamoDB: start the runtime with \`npm start\` in another shell, or work on another table with --stack NAME (a deployed stack's) or --table NAME`;
    expect(await rules('branch', 'list', 'acme', '--endpoint', endpoint)).toEqual({ stderr: `rules: ${explained}`, exitCode: 1 });
    // The default target, at the endpoint a runtime started with DYNAMODB_PORT has.
    await expect(runCli(['branch', 'list', 'acme'], { DYNAMODB_ENDPOINT: endpoint })).rejects.toThrow(explained);
  });

  it('names the endpoint and the table it was given', async () => {
    const endpoint = `http://127.0.0.1:${await closedPort()}`;
    await expect(runCli(['key', 'list', 'acme', '--endpoint', endpoint, '--table', 'rules-staging'], {})).rejects.toThrow(
      `nothing answers at ${endpoint} (--endpoint or DYNAMODB_ENDPOINT), the DynamoDB of table rules-staging: start it, or pass the endpoint it listens on`,
    );
  });
});

it('answers usage errors with the usage text', async () => {
  await expect(cli('frobnicate')).rejects.toThrow(UsageError);
  await expect(cli('key', 'revoke', 'acme')).rejects.toThrow(/missing <keyId>/);
  expect(await runCli(['help'])).toContain('Usage: rules <command>');
  expect(await runCli(['help'])).toMatch(/rule publish <workspace> <branch> <id> \[--checksum SUM\]/);
});

describe('remote', () => {
  it('sets and shows the Git remote, refusing a URL with a secret in it', async () => {
    const set = JSON.parse(await cli('remote', 'set', 'acme', 'https://git.example.com/team/rules.git'));
    expect(set).toMatchObject({ url: 'https://git.example.com/team/rules.git' });
    expect(JSON.parse(await cli('remote', 'show', 'acme'))).toEqual(set);
    await expect(cli('remote', 'set', 'acme', 'https://user:token@git.example.com/r.git')).rejects.toThrow(/No secret in the URL/);
    await expect(cli('remote', 'set', 'acme', 'https://git.example.com/r.git', '--credential', 'cred_nope')).rejects.toThrow(/no credential/);
    await expect(cli('remote', 'show', 'other')).rejects.toThrow(/no remote/);
  });

  it('sets the format pushes write decision tables in: json unless told dmn', async () => {
    expect(JSON.parse(await cli('remote', 'set', 'acme', 'https://git.example.com/team/rules.git'))).toMatchObject({ format: 'json' });
    expect(JSON.parse(await cli('remote', 'set', 'acme', 'https://git.example.com/team/rules.git', '--format', 'dmn'))).toMatchObject({ format: 'dmn' });
    expect(JSON.parse(await cli('remote', 'show', 'acme'))).toMatchObject({ format: 'dmn' });
    await expect(cli('remote', 'set', 'acme', 'https://git.example.com/team/rules.git', '--format', 'xlsx')).rejects.toThrow(/--format must be json or dmn/);
  });
});

/**
 * The operator's CLI: workspaces, branches, API keys, imports and authoring,
 * against the local runtime's table or a deployed one; and a person's, who
 * signs in with their company's identity and calls the API as themselves
 * (./person.ts). `rules help` lists the commands.
 */
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createEntity, updateEntity } from '../authoring/save.ts';
import { publishDraft } from '../publishing/publish.ts';
import { deleteEntity } from '../publishing/delete.ts';
import { ImportRejected, importEntities } from '../publishing/import.ts';
import { entityTypes, type EntityType } from '../vocabulary/kinds.ts';
import { ApiError } from '../vocabulary/errors.ts';
import { getRemote, putRemote } from '../remote/config.ts';
import { createStore, type Store } from '../store/index.ts';
import { remoteFormats, type RemoteFormat } from '../store/types.ts';
import { addBranch, createApiKey, createWorkspace, expireApiKey, revokeApiKey } from '../workspaces/admin.ts';
import { readImportSources, readInterchangeFiles, readJsonFile } from './files.ts';
import { formatNames, type FormatName } from '../interchange/format-contract.ts';
import { exportEntity, importFiles, parseChecksums } from '../interchange/transfer.ts';
import { defaultLocalEndpoint } from '../deployment/names.ts';
import { explainRefusal, resolveTarget } from './target.ts';
import { CallRefused, personCommands, personUsage, runPersonCommand, type PersonIo } from './person.ts';

export const usage = `Usage: rules <command> [options]

Commands:
  workspace create <workspace> [--name NAME] [--default-branch BRANCH]
                                                                   run again, answers the workspace; refused if it
                                                                   exists with another name or default branch
  workspace list                                                   every workspace, by id
  branch add <workspace> <branch>
  branch list <workspace>
  key create <workspace> [--label LABEL] [--owner WHO] [--role ROLE] [--branches A,B] [--expires-at ISO-DATE]
                                                  prints the key once; only its hash is kept. ROLE: reader, executor,
                                                  editor, publisher or admin (the default); --branches limits it to those
  key list <workspace>
  key revoke <workspace> <keyId>
  key expire <workspace> <keyId> [--at ISO-DATE]                   default: now
  import <workspace> <branch> <file-or-dir>... [--publish]         JSON records, validated all before any is written;
                                                                   paths are relative to the folder you run it from
  remote set <workspace> <url> [--credential CREDENTIAL-ID] [--format json|dmn]
                                                                   the Git remote pulls fetch from and pushes send
                                                                   to; the format pushes write decision tables in
  remote show <workspace>
  rule create <workspace> <branch> <file>                          a draft from a JSON record, validated as the API does
  rule update <workspace> <branch> <id> <file> --checksum SUM      the fields in the file replace the draft's, if it
                                                                   still has the checksum you last saw
  rule publish <workspace> <branch> <id> [--checksum SUM] [--acknowledge-replay TASK-ID]
                                                                   the draft as the next version, once its checks and
                                                                   test cases pass (and its replay gate, or the replay
                                                                   task named)
  rule delete <workspace> <branch> <id>                            the draft and its versions
  rule import <workspace> <branch> <file-or-dir>... [--dry-run] [--checksum ID:SUM,...]
                                                  drafts from DMN (.dmn, .xml), Excel (.xlsx), CSV (.csv) or GoRules
                                                  JDM / JSON records (.json), all checked before any is written; a draft
                                                  with other content is replaced only with its checksum
  rule export <workspace> <branch> <id> --format dmn|xlsx|csv|jdm [--version vN] [--out FILE]
                                                  the draft or a version as a file (default: its own name, here)
  workflow create|update|publish|delete ...                        the same, for workflows

As a person, through the API (no target):
${personUsage}

Target (default: the local runtime, ${defaultLocalEndpoint}, table rules-local):
  --local                 the local runtime started by npm start
  --endpoint URL          a DynamoDB endpoint (with --table)
  --table NAME            a table by name (env TABLE_NAME)
  --stack NAME            a deployed stack: the table from its TableName output
  --region REGION         AWS region (env AWS_REGION)
`;

const options = {
  local: { type: 'boolean' },
  endpoint: { type: 'string' },
  table: { type: 'string' },
  stack: { type: 'string' },
  region: { type: 'string' },
  name: { type: 'string' },
  'default-branch': { type: 'string' },
  label: { type: 'string' },
  owner: { type: 'string' },
  role: { type: 'string' },
  branches: { type: 'string' },
  'expires-at': { type: 'string' },
  at: { type: 'string' },
  publish: { type: 'boolean' },
  credential: { type: 'string' },
  format: { type: 'string' },
  checksum: { type: 'string' },
  'acknowledge-replay': { type: 'string' },
  'dry-run': { type: 'boolean' },
  version: { type: 'string' },
  out: { type: 'string' },
  api: { type: 'string' },
  workspace: { type: 'string' },
  'login-hint': { type: 'string' },
  body: { type: 'string' },
  branch: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

export class UsageError extends Error {}

const cliActor = 'cli';

const parse = (args: string[]) => parseArgs({ args, options, allowPositionals: true, strict: true });
type Values = ReturnType<typeof parse>['values'];

/**
 * Runs one command; returns what it prints. Throws UsageError or the operation's error. A person's commands
 * say their progress with `io.say` (standard error by default).
 */
export async function runCli(argv: string[], env: NodeJS.ProcessEnv = process.env, io: Partial<PersonIo> = {}): Promise<string> {
  const { values, positionals } = parse(argv);
  if (values.help || !positionals[0] || positionals[0] === 'help') return usage;
  // Relative to where the user stands: npm runs scripts from the project root and says in INIT_CWD where it was called.
  const from = env.INIT_CWD || process.cwd();
  const [first, ...args] = positionals;
  if ((personCommands as readonly string[]).includes(first!))
    return runPersonCommand(
      first as (typeof personCommands)[number],
      args,
      values,
      { env, from, say: (line) => console.error(line), ...io },
      (problem) => new UsageError(`${problem}\n\n${usage}`),
    );
  const target = await resolveTarget(values, env);
  try {
    return await command(createStore(target), positionals, values, from);
  } catch (error) {
    throw explainRefusal(error, target);
  }
}

/** One command on the target's store; `from` is the folder that relative paths start from. */
async function command(store: Store, positionals: string[], values: Values, from: string): Promise<string> {
  const [group, action, ...rest] = positionals;
  const arg = (i: number, name: string) => {
    const value = [action, ...rest][i];
    if (!value) throw new UsageError(`missing <${name}>\n\n${usage}`);
    return value;
  };
  const json = (value: unknown) => JSON.stringify(value, null, 2);

  switch (`${group} ${group === 'import' ? '' : action}`.trim()) {
    case 'workspace create': {
      const workspace = await createWorkspace(store, { id: arg(1, 'workspace'), name: values.name, defaultBranch: values['default-branch'] });
      return json(workspace);
    }
    case 'workspace list':
      return json(await store.listWorkspaces());
    case 'branch add':
      return json(await addBranch(store, arg(1, 'workspace'), arg(2, 'branch')));
    case 'branch list':
      return json(await store.listBranches(arg(1, 'workspace')));
    case 'key create': {
      const { key, record } = await createApiKey(store, arg(1, 'workspace'), {
        label: values.label,
        owner: values.owner,
        role: values.role,
        branches: values.branches?.split(',').map((b) => b.trim()),
        expiresAt: values['expires-at'],
      });
      return `${json(record)}\nAPI key (shown once, keep it secret): ${key}`;
    }
    case 'key list':
      return json(await store.listApiKeys(arg(1, 'workspace')));
    case 'key revoke':
      return json(await revokeApiKey(store, arg(1, 'workspace'), arg(2, 'keyId')));
    case 'key expire':
      return json(await expireApiKey(store, arg(1, 'workspace'), arg(2, 'keyId'), values.at));
    case 'import': {
      const [workspaceId, branch, ...paths] = [action, ...rest];
      if (!workspaceId || !branch || paths.length === 0) throw new UsageError(`import needs <workspace> <branch> <file-or-dir>...\n\n${usage}`);
      if (!(await store.getBranch(workspaceId, branch))) throw new Error(`workspace "${workspaceId}" has no branch "${branch}"`);
      const sources = await readImportSources(paths.map((path) => resolve(from, path)));
      const outcomes = await importEntities(store, { workspaceId, branch }, sources, { actor: 'cli', publish: values.publish });
      return outcomes.map((o) => `${o.outcome.padEnd(9)} ${o.entityType} ${o.id}${o.version ? ` (${o.version})` : ''}  ${o.origin}`).join('\n');
    }
    case 'remote set':
      return json(await putRemote(store, arg(1, 'workspace'), { url: arg(2, 'url'), credentialId: values.credential, format: remoteFormat(values.format) }));
    case 'remote show':
      return json(await getRemote(store, arg(1, 'workspace')));
    case 'rule import': {
      const [workspaceId, branch, ...paths] = rest;
      if (!workspaceId || !branch || paths.length === 0) throw new UsageError(`rule import needs <workspace> <branch> <file-or-dir>...\n\n${usage}`);
      if (!(await store.getBranch(workspaceId, branch))) throw new Error(`workspace "${workspaceId}" has no branch "${branch}"`);
      const files = await readInterchangeFiles(paths.map((path) => resolve(from, path)));
      const request = { files, dryRun: values['dry-run'], checksums: parseChecksums(values.checksum) };
      return json(await importFiles(store, { workspaceId, branch }, request, cliActor));
    }
    case 'rule export': {
      const format = values.format as FormatName;
      if (!formatNames.includes(format)) throw new UsageError(`rule export needs --format ${formatNames.join('|')}\n\n${usage}`);
      const ref = { workspaceId: arg(1, 'workspace'), branch: arg(2, 'branch'), entityType: 'rule' as const, id: arg(3, 'id') };
      const file = await exportEntity(store, ref, format, values.version);
      const out = resolve(from, values.out ?? file.fileName);
      await writeFile(out, file.body);
      return `wrote ${out} (${file.body.length} bytes, ${file.contentType})`;
    }
    default:
      if (entityTypes.includes(group as EntityType) && authoringVerbs.includes(action as AuthoringVerb))
        return json(
          await author(store, group as EntityType, action as AuthoringVerb, arg, {
            from,
            checksum: values.checksum,
            acknowledgeReplay: values['acknowledge-replay'],
          }),
        );
      throw new UsageError(`unknown command "${positionals.join(' ')}"\n\n${usage}`);
  }
}

/** --format, when given: one of the remote's formats. */
function remoteFormat(format: string | undefined): RemoteFormat | undefined {
  if (format === undefined || (remoteFormats as readonly string[]).includes(format)) return format as RemoteFormat | undefined;
  throw new UsageError(`--format must be ${remoteFormats.join(' or ')}, not "${format}"\n\n${usage}`);
}

const authoringVerbs = ['create', 'update', 'publish', 'delete'] as const;
type AuthoringVerb = (typeof authoringVerbs)[number];

/** `rule|workflow create|update|publish|delete`: what the API's authoring does, on the store. */
async function author(
  store: Store,
  entityType: EntityType,
  verb: AuthoringVerb,
  arg: (i: number, name: string) => string,
  options: { from: string; checksum?: string; acknowledgeReplay?: string },
) {
  const scope = { workspaceId: arg(1, 'workspace'), branch: arg(2, 'branch'), entityType };
  if (!(await store.getBranch(scope.workspaceId, scope.branch))) throw new Error(`workspace "${scope.workspaceId}" has no branch "${scope.branch}"`);
  const ref = () => ({ ...scope, id: arg(3, 'id') });
  const record = async (at: number) => {
    const file = resolve(options.from, arg(at, 'file'));
    const content = await readJsonFile(file);
    if (typeof content !== 'object' || content === null || Array.isArray(content)) throw new Error(`${file}: must hold one JSON object`);
    return content as Record<string, never>;
  };
  switch (verb) {
    case 'create':
      return (await createEntity(store, scope, await record(3), cliActor)).saved;
    case 'update':
      if (!options.checksum) throw new UsageError(`${entityType} update needs --checksum: the draft's checksum as you last saw it\n\n${usage}`);
      return updateEntity(store, ref(), { ...(await record(4)), checksum: options.checksum }, cliActor);
    case 'publish':
      return publishDraft(store, ref(), { checksum: options.checksum, acknowledgeReplay: options.acknowledgeReplay }, cliActor);
    case 'delete':
      return deleteEntity(store, ref());
  }
}

/** A refusal's problems one a line (an import's, by file and element), beyond the few its message names. */
function problemLines(error: ApiError): string {
  const { problems = [] } = error.data as { problems?: { path: string; message: string }[] };
  return problems.map((p) => `\n  ${p.path}: ${p.message}`).join('');
}

export async function main(argv = process.argv.slice(2)) {
  try {
    console.log(await runCli(argv));
  } catch (error) {
    if (error instanceof CallRefused) {
      console.log(error.body);
      console.error(`rules: ${error.message}`);
    } else if (error instanceof ApiError) console.error(`rules: ${error.code}: ${error.message}${problemLines(error)}`);
    else if (error instanceof ImportRejected)
      console.error(`rules: nothing imported:\n${error.problems.map((p) => `  ${p.origin}: ${p.field} ${p.message}`).join('\n')}`);
    else console.error(`rules: ${(error as Error).message}`);
    process.exitCode = error instanceof UsageError ? 2 : 1;
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();

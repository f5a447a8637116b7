/**
 * `npm run test:ddb-local`: the store and integration suites a second time,
 * against the official DynamoDB Local instead of the embedded emulator
 * (dynalite), so that neither the service nor a test passes only through a
 * quirk of dynalite. DynamoDB Local (a Java server) ships in the npm package
 * amplify-dynamodb-simulator, whose dependencies are large and of no use here:
 * only its tarball is fetched (`npm pack`, once, into the ignored
 * .cache/dynamodb-local/) and its emulator/ folder kept. The server runs in
 * memory on 127.0.0.1 (LoopbackDynamoDBLocal.java) with its telemetry off, and
 * every test file makes its own table there (lib/local/embedded-dynamo.ts,
 * DYNAMODB_LOCAL_ENDPOINT). Without Java it says so and skips. `.ci/run` runs it.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { sharedDynamoSetting } from '../../lib/local/embedded-dynamo.ts';
import { clientConfig } from '../../lib/store/dynamo/client.ts';

/** Its emulator/ is DynamoDB Local 1.25.1; the integrity is the registry's, checked on every fetch. */
const simulator = {
  spec: 'amplify-dynamodb-simulator@2.9.30',
  integrity: 'sha512-xTeeRLvzEfqyd5lh3bH4c0kHvSHHmmhD5ZDsHFKAQ5g2Zl6JqlFdutaQhCLHzxEp6Ry1o7TB6niIoXuQAnSewQ==',
};
const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const cacheDir = join(repoRoot, '.cache', 'dynamodb-local');
const launcher = fileURLToPath(new URL('LoopbackDynamoDBLocal.java', import.meta.url));
/** The suites that work the store: below the HTTP layer, and through the whole local runtime. */
const suites = ['test/store/', 'test/integration/'];
const limits = { packMs: 5 * 60_000, startMs: 60_000, answerMs: 10_000, suitesMs: 20 * 60_000, stopMs: 10_000 };

const say = (line: string) => console.log(`test:ddb-local: ${line}`);

/** Why Java cannot run DynamoDB Local through the launcher here, or undefined when it can. */
function javaLack(): string | undefined {
  const modules = spawnSync('java', ['--list-modules'], { encoding: 'utf8', timeout: 30_000 });
  if (modules.error) return 'Java is not installed (no `java` on PATH)';
  // The launcher is a single-file source program, which the JDK's compiler module runs.
  if (!/^jdk\.compiler@/m.test(modules.stdout))
    return 'this Java is a runtime without the JDK compiler (jdk.compiler): install a JDK, e.g. openjdk-17-jdk-headless';
  return undefined;
}

/** The emulator/ folder of the pinned package, fetched into the cache unless it is there. */
function emulatorDir(): string {
  const dir = join(cacheDir, simulator.spec.replace('@', '-'), 'emulator');
  if (existsSync(join(dir, 'DynamoDBLocal.jar'))) return dir;
  mkdirSync(cacheDir, { recursive: true });
  const work = mkdtempSync(join(cacheDir, 'fetch-'));
  try {
    const tarball = join(work, packTarball(work));
    run('tar', ['-xzf', tarball, '-C', work, 'package/emulator'], 'extracting emulator/ from the tarball');
    mkdirSync(join(dir, '..'), { recursive: true });
    renameSync(join(work, 'package', 'emulator'), dir);
    return dir;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** `npm pack`s the pinned package into `dir` and returns the tarball's file name, once its integrity is the pinned one. */
function packTarball(dir: string): string {
  say(`fetching ${simulator.spec} (npm pack, about 55 MB) into ${cacheDir}`);
  const [packed] = JSON.parse(run('npm', ['pack', simulator.spec, '--json', '--pack-destination', dir], `npm pack ${simulator.spec}`, limits.packMs)) as [
    { filename: string; integrity: string },
  ];
  if (packed.integrity !== simulator.integrity)
    throw new Error(`npm pack ${simulator.spec} gave integrity ${packed.integrity}, not the pinned ${simulator.integrity}`);
  return packed.filename;
}

/** Runs a command to its end and returns its output; a failure throws one plain line naming `what`. */
function run(command: string, args: string[], what: string, timeout = 60_000): string {
  const result = spawnSync(command, args, { encoding: 'utf8', timeout });
  if (result.status === 0) return result.stdout;
  const why = result.error?.message ?? (result.signal ? `stopped by ${result.signal}` : `exit ${result.status}`);
  // Its first lines that say something: not warnings, not a stack.
  const said = result.stderr
    ?.split('\n')
    .filter((line) => line.trim() && !/^npm warn|^\S*\s+at /.test(line))
    .slice(0, 4)
    .join(' | ');
  throw new Error(`${what} failed (${why})${said ? `: ${said}` : ''}`);
}

interface Server {
  endpoint: string;
  stop(): Promise<void>;
}

/** Starts DynamoDB Local in memory on 127.0.0.1 and resolves once it listens; a start that fails or takes too long shows its output. */
async function startDynamoDBLocal(emulator: string): Promise<Server> {
  const java = spawn(
    'java',
    [`-Djava.library.path=${join(emulator, 'DynamoDBLocal_lib')}`, '-cp', join(emulator, 'DynamoDBLocal.jar'), launcher, '-inMemory', '-disableTelemetry'],
    {
      cwd: emulator,
      // DynamoDB Local 1.25.1 sends telemetry to AWS unless this is 0; its -disableTelemetry option is read but never consulted.
      env: { ...process.env, DDB_LOCAL_TELEMETRY: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  const port = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => fail(`no listener after ${limits.startMs / 1000} s`), limits.startMs);
    function fail(why: string) {
      clearTimeout(timer);
      reject(new Error(`DynamoDB Local did not start (${why}):\n${output}`));
    }
    const read = (chunk: Buffer) => {
      output += chunk;
      const listening = /listening on 127\.0\.0\.1:(\d+)/.exec(output);
      if (!listening) return;
      clearTimeout(timer);
      resolve(listening[1]!);
    };
    java.once('error', (error) => fail(error.message));
    java.once('exit', (code, signal) => fail(`java exited: ${signal ?? code}`));
    java.stdout.on('data', read);
    java.stderr.on('data', read);
  }).catch(async (error: unknown) => {
    await stopProcess(java);
    throw error;
  });
  return { endpoint: `http://127.0.0.1:${port}`, stop: () => stopProcess(java) };
}

/** Ends a child process: SIGTERM, then SIGKILL if it has not exited within the bound. */
async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), limits.stopMs);
  await exited;
  clearTimeout(timer);
}

/** One request through the SDK, as the suites will send them: the server answers and takes the local credentials and region. */
async function checkAnswers(endpoint: string): Promise<void> {
  const client = new DynamoDBClient(clientConfig({ tableName: '', endpoint }));
  try {
    await client.send(new ListTablesCommand({}), { abortSignal: AbortSignal.timeout(limits.answerMs) });
  } finally {
    client.destroy();
  }
}

/** vitest on the suites with the shared endpoint set; resolves to its exit code (1 when it overruns its bound). */
function runSuites(endpoint: string): Promise<number> {
  const vitest = spawn(join(repoRoot, 'node_modules', '.bin', 'vitest'), ['run', '--reporter=default', '--reporter=./test/summary-reporter.ts', ...suites], {
    cwd: repoRoot,
    env: { ...process.env, [sharedDynamoSetting]: endpoint, TEST_SUITE: 'ddb-local' },
    stdio: 'inherit',
  });
  const timer = setTimeout(() => {
    say(`the suites ran past ${limits.suitesMs / 60_000} minutes: stopping them`);
    void stopProcess(vitest);
  }, limits.suitesMs);
  return new Promise((resolve) =>
    vitest.once('exit', (code) => {
      clearTimeout(timer);
      resolve(code ?? 1);
    }),
  );
}

async function main(): Promise<number> {
  const lack = javaLack();
  if (lack) {
    say(`skipped: ${lack}. DynamoDB Local is a Java server; the store and integration suites ran against the embedded DynamoDB only (npm test).`);
    return 0;
  }
  const started = Date.now();
  const server = await startDynamoDBLocal(emulatorDir());
  // Ctrl-C or a stop of this script stops DynamoDB Local too.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void server.stop().finally(() => process.exit(130)));
  try {
    await checkAnswers(server.endpoint);
    say(`DynamoDB Local listening on ${server.endpoint}; running ${suites.join(' and ')} against it`);
    return await runSuites(server.endpoint);
  } finally {
    await server.stop();
    say(`done in ${Math.round((Date.now() - started) / 1000)} s`);
  }
}

try {
  process.exitCode = await main();
} catch (error) {
  say((error as Error).message);
  process.exitCode = 1;
}

/**
 * The README and its guides run as written: every `sh` block of each page of
 * `pages`, page after page and in order within each, pasted into one bash
 * against a freshly started `npm start`, the way a new user follows them from
 * the README's tour on. Blocks marked `<!-- not run: why -->` (the quick start
 * itself, templates for a real remote, the deploy) are left out. Each curl line
 * must answer the status its trailing comment names (`# 401 ...`), or a 2xx
 * when it names none.
 *
 * A person signing in (`rules sign-in`) gets a stand-in for their browser as
 * `$BROWSER` (test/helpers/demo-browser.ts), which types the demo person's
 * password on the local OpenID provider's page as the reader would.
 *
 * It runs in a network namespace that holds only loopback (`unshare -rn`), so
 * the default ports (3000, 3001, 3002, 8000) the pages use are free even while a
 * developer's own `npm start` runs, and no command can reach another machine.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
/**
 * The pages whose blocks run, in the order they run: a guide's blocks use what
 * the tour and the guides before it made (the README's "Where to read on"
 * lists them in this order). Every page in docs/ must be here.
 */
const pages = [
  'README.md',
  'docs/rules.md',
  'docs/change-safety.md',
  'docs/integrations.md',
  'docs/workflows.md',
  'docs/import-export.md',
  'docs/cli.md',
  'docs/governance.md',
  'docs/console.md',
  'docs/deploying.md',
  'docs/development.md',
];

interface Block {
  page: string;
  line: number;
  code: string;
}

/** The `sh` blocks a user pastes from one page, with the line each starts on. */
function runnableBlocks(page: string): Block[] {
  const markdown = readFileSync(join(root, page), 'utf8');
  const blocks: Block[] = [];
  const fence = /(<!-- not run:[^>]*-->\s*\n)?```sh\n([\s\S]*?)```/g;
  for (const match of markdown.matchAll(fence)) {
    if (match[1]) continue;
    blocks.push({ page, line: markdown.slice(0, match.index).split('\n').length, code: match[2]! });
  }
  return blocks;
}

interface ExpectedCall {
  status: number | '2xx';
  command: string;
}

/** One expectation per curl a block runs: the status in the line's trailing comment, or any 2xx. */
function expectedCalls(code: string): ExpectedCall[] {
  const logicalLines = code.replace(/\\\n/g, ' ').split('\n');
  return logicalLines.flatMap((line) => {
    const calls = line.match(/(^|[\s;|&(])curl\s/g)?.length ?? 0;
    const status = /\s#\s*(\d{3})\b/.exec(line)?.[1];
    return Array.from({ length: calls }, () => ({ status: status ? Number(status) : ('2xx' as const), command: line.trim() }));
  });
}

const namespaceWorks = spawnSync('unshare', ['-rn', 'true']).status === 0;

it('runs every page of docs/, so that a new guide is not left out', () => {
  const guides = readdirSync(join(root, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`);
  expect(guides.sort()).toEqual(pages.filter((page) => page.startsWith('docs/')).sort());
});

it('runs every shell block of the README and its guides against a fresh npm start, each curl answering as its comment says', () => {
  const blocks = pages.flatMap(runnableBlocks);
  expect(blocks.length).toBeGreaterThanOrEqual(4);
  const expected = blocks.flatMap((block) => expectedCalls(block.code));

  const dir = mkdtempSync(join(tmpdir(), 'readme-'));
  // Every curl also reports its status and URL on standard error, so that a pipe into `field` still reads the body alone.
  writeFileSync(join(dir, '.curlrc'), 'write-out = "%{stderr}README-CURL %{http_code} %{method} %{url_effective}\\n"\n');
  const script = join(dir, 'readme.sh');
  writeFileSync(script, ['set -euo pipefail', ...blocks.map((b) => `# ${b.page} line ${b.line}\n${b.code}`)].join('\n'));
  const runner = join(dir, 'run.sh');
  writeFileSync(
    runner,
    `set -u
${namespaceWorks ? 'ip link set lo up' : ''}
cd ${JSON.stringify(root)}
# Its own process group, so that stopping it stops npm, tsx and node together: npm alone does not pass the signal on to all of them.
setsid npm start > ${JSON.stringify(join(dir, 'start.log'))} 2>&1 &
server=$!
for i in $(seq 1 300); do curl -q -sf -o /dev/null http://127.0.0.1:3000/openapi.json && break; sleep 0.1; done
bash ${JSON.stringify(script)}
status=$?
kill -TERM -- -$server; wait $server
exit $status
`,
  );
  const run = spawnSync(namespaceWorks ? 'unshare' : 'bash', namespaceWorks ? ['-rn', 'bash', runner] : [runner], {
    cwd: root,
    encoding: 'utf8',
    timeout: 150_000,
    env: {
      ...process.env,
      CURL_HOME: dir,
      npm_config_update_notifier: 'false',
      SERVICE_API_KEY: '',
      PORT: '',
      GIT_PORT: '',
      DEMO_PROVIDER_PORT: '',
      DYNAMODB_PORT: '',
      DATA_DIR: '',
      OIDC_PORT: '',
      RULES_SESSION_FILE: '',
      BROWSER: `'${join(root, 'node_modules/.bin/tsx')}' '${join(root, 'test/helpers/demo-browser.ts')}'`,
    },
  });
  const startLog = readFileSync(join(dir, 'start.log'), 'utf8');
  const context = `\n--- stdout\n${run.stdout}\n--- stderr\n${run.stderr}\n--- npm start\n${startLog}`;
  expect(run.status, `the pages' blocks failed${context}`).toBe(0);
  expect(startLog).toContain('API key:           demo-key');
  // The README's two people: the audit log names who proposed the change and who approved and published it.
  expect(run.stdout).toContain(
    'publishEntity ben@demo.example\napproveChange ben@demo.example\nproposeChange ana@demo.example\nupdateEntity ana@demo.example\n',
  );

  const calls = [...run.stderr.matchAll(/^README-CURL (\d{3}) (\S+) (\S+)$/gm)].map(([, status, method, url]) => ({ status: Number(status), method, url }));
  expect(calls.length, `curl calls made vs curl lines in the pages${context}`).toBe(expected.length);
  calls.forEach((call, i) => {
    const { status, command } = expected[i]!;
    const ok = status === '2xx' ? call.status >= 200 && call.status < 300 : call.status === status;
    expect(ok, `${command}\n answered ${call.status} (${call.method} ${call.url}), expected ${status}`).toBe(true);
  });
}, 180_000);

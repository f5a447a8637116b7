/**
 * CI's supply-chain check: `npm audit` of the production dependencies (what
 * the functions bundle and the CLI runs; the dev tools reach no user), which
 * fails the run on any high or critical advisory, naming each. A registry
 * that refuses the audit request (one without the audit endpoint: this
 * project's build machine answers 405 Method Not Allowed) leaves the check
 * undone and says so plainly, rather than failing every run; anything else
 * it cannot read fails, since a check that passes without checking is worse
 * than none.
 *
 * `.ci/run` runs it after `npm ci`: `npx tsx .ci/npm-audit.ts`.
 */
import { spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';

export const auditCommand = ['npm', 'audit', '--omit=dev', '--audit-level=high', '--json'] as const;

/** Whether CI may go on, and what to print. */
export interface Verdict {
  readonly pass: boolean;
  readonly message: string;
}

const failingSeverities = ['critical', 'high'];

/** An advisory as the report has it, or the name of a dependency that is vulnerable through its own. */
type Via = string | { title?: string; url?: string };

interface Report {
  vulnerabilities: Record<string, { name: string; severity: string; range?: string; via?: Via[] }>;
  metadata: { vulnerabilities: Record<string, number> };
}

/** npm's answer when the audit request failed: with the registry's HTTP status when it answered at all. */
interface RequestFailure {
  message?: string;
  statusCode?: number;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isReport = (value: unknown): value is Report =>
  isRecord(value) && isRecord(value.vulnerabilities) && isRecord(value.metadata) && isRecord(value.metadata.vulnerabilities);

const describe = (via: Via) => (typeof via === 'string' ? `through ${via}` : [via.title, via.url].filter(Boolean).join(' '));

/** The verdict on what `auditCommand` printed on its standard output. */
export function auditVerdict(stdout: string): Verdict {
  let output: unknown;
  try {
    output = JSON.parse(stdout);
  } catch {
    return { pass: false, message: `npm audit: no JSON report on its standard output: ${JSON.stringify(stdout.slice(0, 200))}` };
  }

  if (isReport(output)) {
    const counts = output.metadata.vulnerabilities;
    const serious = Object.values(output.vulnerabilities).filter((vulnerability) => failingSeverities.includes(vulnerability.severity));
    if (serious.length === 0) {
      const summary = ['moderate', 'low', 'info'].map((severity) => `${counts[severity] ?? 0} ${severity}`).join(', ');
      return { pass: true, message: `npm audit: no high or critical advisory in the production dependencies (${summary})` };
    }
    const lines = serious.map(({ name, severity, range, via = [] }) => `  ${name} ${range ?? ''} (${severity}): ${via.map(describe).join('; ')}`);
    return { pass: false, message: [`npm audit: high or critical advisories in ${serious.length} production dependencies:`, ...lines].join('\n') };
  }

  const failure: RequestFailure = isRecord(output) ? output : {};
  const what = failure.message ?? JSON.stringify(output).slice(0, 200);
  const status = failure.statusCode;
  // 4xx: the registry will not serve audits to this client, however often asked; 501: it has no such endpoint.
  if (typeof status === 'number' && ((status >= 400 && status < 500) || status === 501)) {
    return { pass: true, message: `npm audit: the registry refused the audit request (${what}): not checked here` };
  }
  if (typeof status === 'number') return { pass: false, message: `npm audit: the registry failed to answer the audit request (${what}): try again` };
  return { pass: false, message: `npm audit: the audit did not run: ${what}` };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [command, ...args] = auditCommand;
  const run = spawnSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const verdict: Verdict = run.error ? { pass: false, message: `npm audit: could not run npm: ${run.error.message}` } : auditVerdict(run.stdout);
  if (verdict.pass) console.log(verdict.message);
  else {
    // npm's own account of what went wrong, which the verdict only sums up.
    process.stderr.write(run.stderr ?? '');
    console.error(verdict.message);
    process.exitCode = 1;
  }
}

/**
 * CI's `npm audit` verdict (.ci/npm-audit.ts) on what npm prints: reports
 * with and without high or critical advisories, the registry refusing the
 * audit request (as this project's build machine's does), and the failures
 * that must not pass for a clean audit.
 */
import { describe, expect, it } from 'vitest';
import { auditCommand, auditVerdict } from '../../.ci/npm-audit.ts';

const report = (vulnerabilities: Record<string, unknown>, counts: Record<string, number> = {}) =>
  JSON.stringify({
    auditReportVersion: 2,
    vulnerabilities,
    metadata: {
      vulnerabilities: { info: 0, low: 0, moderate: 0, high: 0, critical: 0, total: Object.keys(vulnerabilities).length, ...counts },
      dependencies: { prod: 120, dev: 300, optional: 2, peer: 0, peerOptional: 0, total: 421 },
    },
  });

/** What `npm audit --json` printed on the build machine, whose registry has no audit endpoint (headers shortened). */
const refused405 = JSON.stringify({
  message: '405 Method Not Allowed - POST https://registry.npmjs.org/-/npm/v1/security/advisories/bulk',
  method: 'POST',
  uri: 'https://registry.npmjs.org/-/npm/v1/security/advisories/bulk',
  headers: { allow: ['GET,HEAD'] },
  statusCode: 405,
  body: '',
  error: { summary: '', detail: '' },
});

describe('npm audit verdict', () => {
  it('audits the production dependencies only, at high severity, as JSON', () => {
    expect(auditCommand).toEqual(['npm', 'audit', '--omit=dev', '--audit-level=high', '--json']);
  });

  it('passes a clean report, and one with moderate and low advisories only', () => {
    expect(auditVerdict(report({}))).toEqual({
      pass: true,
      message: 'npm audit: no high or critical advisory in the production dependencies (0 moderate, 0 low, 0 info)',
    });
    const mild = report(
      { 'some-lib': { name: 'some-lib', severity: 'moderate', range: '<1.2.3', via: [{ title: 'ReDoS', url: 'https://github.com/advisories/GHSA-1' }] } },
      { moderate: 1 },
    );
    expect(auditVerdict(mild)).toMatchObject({ pass: true, message: expect.stringContaining('1 moderate') });
  });

  it('fails on a high or critical advisory, naming each package, its advisories and what it comes through', () => {
    const serious = report(
      {
        parser: { name: 'parser', severity: 'critical', range: '<2.0.1', via: [{ title: 'Prototype pollution', url: 'https://github.com/advisories/GHSA-2' }] },
        wrapper: { name: 'wrapper', severity: 'high', range: '1.0.0 - 1.4.0', via: ['parser'] },
        other: { name: 'other', severity: 'low', range: '*', via: [{ title: 'Minor', url: 'https://github.com/advisories/GHSA-3' }] },
      },
      { critical: 1, high: 1, low: 1 },
    );
    const verdict = auditVerdict(serious);
    expect(verdict.pass).toBe(false);
    expect(verdict.message.split('\n')).toEqual([
      'npm audit: high or critical advisories in 2 production dependencies:',
      '  parser <2.0.1 (critical): Prototype pollution https://github.com/advisories/GHSA-2',
      '  wrapper 1.0.0 - 1.4.0 (high): through parser',
    ]);
  });

  it('passes, saying it checked nothing, when the registry refuses the audit request', () => {
    expect(auditVerdict(refused405)).toEqual({
      pass: true,
      message:
        'npm audit: the registry refused the audit request (405 Method Not Allowed - POST https://registry.npmjs.org/-/npm/v1/security/advisories/bulk): not checked here',
    });
    expect(
      auditVerdict(JSON.stringify({ message: '501 Not Implemented - POST https://mirror.example/-/npm/v1/security/advisories/bulk', statusCode: 501 })).pass,
    ).toBe(true);
  });

  it('fails when the registry fails to answer, the request never reaches it, npm fails, or prints no report', () => {
    const failures = [
      JSON.stringify({ message: '503 Service Unavailable - POST https://registry.npmjs.org/-/npm/v1/security/advisories/bulk', statusCode: 503 }),
      JSON.stringify({
        message: 'request to https://registry.npmjs.org/-/npm/v1/security/advisories/bulk failed, reason: getaddrinfo ENOTFOUND registry.npmjs.org',
        error: { summary: '', detail: '' },
      }),
      JSON.stringify({
        error: { code: 'ENOLOCK', summary: 'This command requires an existing lockfile.', detail: 'Try creating one first with: npm i --package-lock-only' },
      }),
      '',
      'npm error something else',
    ];
    for (const stdout of failures) expect(auditVerdict(stdout), stdout).toMatchObject({ pass: false });
    expect(auditVerdict(failures[0]!).message).toMatch(/failed to answer.*503/);
    expect(auditVerdict(failures[2]!).message).toMatch(/did not run.*ENOLOCK/);
  });
});

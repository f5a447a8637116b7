/**
 * The cdk-nag AwsSolutions findings the stack acknowledges (test/cdk/stack.test.ts
 * checks none is left unacknowledged): each with a reason, on the resource it
 * is about or the construct whose resource that is, and each still needed. An
 * acknowledgement on a parent would also cover its other children's findings,
 * and one no finding needs any more would cover the next change's.
 */
import { Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks, NagRuleCompliance, type IApplyRule } from 'cdk-nag';
import type { IConstruct } from 'constructs';
import { describe, expect, it } from 'vitest';
import { RulesServiceStack, stackId } from '../../cdk/stack.ts';
import { fastApp } from './template-checks.ts';

/** AwsSolutions, recording every finding, acknowledged or not, with the path of its resource. */
class RecordingChecks extends AwsSolutionsChecks {
  readonly findings: { id: string; path: string }[] = [];

  protected override applyRule(params: IApplyRule): void {
    // The finding ids as cdk-nag makes them: `<pack>-<rule>`, and `[<finding>]` after it for a rule that tells its findings apart.
    const id = `${this.readPackName}-${params.ruleSuffixOverride ?? params.rule.name}`;
    const path = params.node.node.path;
    try {
      const result = params.rule(params.node);
      if (result === NagRuleCompliance.NON_COMPLIANT) this.findings.push({ id, path });
      else if (Array.isArray(result)) for (const finding of result) this.findings.push({ id: `${id}[${finding}]`, path });
    } catch {
      this.findings.push({ id, path });
    }
    super.applyRule(params);
  }
}

interface Acknowledgement {
  construct: IConstruct;
  id: string;
  reason: string;
}

/** What is wrong with the acknowledgements under `scope`, a line each, and how many there are. */
function audit(scope: IConstruct): { count: number; problems: string[] } {
  const checks = new RecordingChecks();
  checks.validateScope(scope);
  const acknowledgements: Acknowledgement[] = scope.node
    .findAll()
    .flatMap((construct) =>
      construct.node.metadata
        .filter((entry) => entry.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
        .flatMap((entry) =>
          Object.entries(entry.data as Record<string, string>).map(([id, reason]) => ({ construct, id: id.replace(/^annotation::/i, ''), reason })),
        ),
    );
  const problems = acknowledgements.flatMap(({ construct, id, reason }) => {
    const where = `${id} on ${construct.node.path}`;
    const covered = new Set(
      checks.findings
        .filter((finding) => finding.id === id && (finding.path === construct.node.path || finding.path.startsWith(`${construct.node.path}/`)))
        .map((finding) => finding.path),
    );
    const own = construct.node.defaultChild?.node.path ?? construct.node.path;
    return [
      reason.length < 40 && `${where}: no reason worth the name`,
      covered.size === 0 && `${where}: covers no finding`,
      [...covered].some((path) => path !== own) && `${where}: covers ${[...covered].join(', ')}, not its own resource only`,
    ].filter((problem) => problem !== false);
  });
  return { count: acknowledgements.length, problems };
}

describe('cdk-nag acknowledgements', () => {
  it('each give a reason, cover a finding still there, and sit on the one resource they are about', () => {
    const { count, problems } = audit(new RulesServiceStack(fastApp(), stackId));
    expect(count).toBeGreaterThan(0);
    expect(problems).toEqual([]);
  });

  it('are caught when stale, on a parent, or without a reason', () => {
    const stack = new RulesServiceStack(fastApp(), stackId);
    // The task queue has a dead-letter queue: nothing for SQS3 to find.
    Validations.of(stack.tasks.queue).acknowledge({ id: 'AwsSolutions-SQS3', reason: 'A stale acknowledgement, here to be caught by the audit.' });
    // On the function rather than its role (whose inline policy has the finding), it would also cover any other of its resources that grants on "*".
    Validations.of(stack.tasks.sweeper).acknowledge({ id: 'AwsSolutions-IAM5[Resource::*]', reason: 'X-Ray' });
    expect(audit(stack).problems).toEqual([
      expect.stringMatching(/^AwsSolutions-SQS3 on RulesService\/Pull\/Tasks: covers no finding$/),
      expect.stringMatching(/^AwsSolutions-IAM5\[Resource::\*\] on RulesService\/Pull\/Sweeper: no reason/),
      expect.stringMatching(
        /^AwsSolutions-IAM5\[Resource::\*\] on RulesService\/Pull\/Sweeper: covers RulesService\/Pull\/Sweeper\/Role\/Resource, not its own/,
      ),
    ]);
  });
});

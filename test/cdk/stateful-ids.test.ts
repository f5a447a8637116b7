/**
 * The logical ids of every resource that holds data. CloudFormation replaces a
 * resource whose logical id changes: a renamed table, key or bucket would be
 * created empty beside the old one, and a renamed queue would drop the
 * messages in flight. A refactor that moves a construct must keep these ids;
 * the list below was read off `cdk synth` before the task queue left
 * lib/remote, and changes here only with a migration plan.
 */
import { describe, expect, it } from 'vitest';
import { synthesize } from './template-checks.ts';

const statefulIds: Record<string, string[]> = {
  'AWS::DynamoDB::Table': ['TableCD117FA1'],
  'AWS::KMS::Key': ['AlarmsKey3C2381B3', 'CredentialsKeyA24B74BF'],
  'AWS::SQS::Queue': ['PullDeadLetters5C984CB4', 'PullTasksE90C76A6', 'SchedulesDeadLettersE738B711'],
  'AWS::S3::Bucket': ['ConsoleBucket86B6957C', 'ConsoleLogs223D8CCD'],
  'AWS::SNS::Topic': ['AlarmsTopic3A2DFEBA'],
  // Schedules live in a group the scheduled-run function creates on first use, not in the template.
  'AWS::Scheduler::ScheduleGroup': [],
};

describe('stateful resources', () => {
  const { resources } = synthesize();
  const idsOf = (type: string) =>
    Object.entries(resources)
      .filter(([, resource]) => resource.Type === type)
      .map(([id]) => id)
      .sort();

  it.each(Object.entries(statefulIds))('%s keeps its logical ids', (type, ids) => {
    expect(idsOf(type)).toEqual(ids);
  });
});

/**
 * Rule schedules: one item per rule and branch in the branch's schedule
 * partition, written on condition of the revision read, so two saves never
 * overwrite each other unseen. inputParam is kept as JSON text, as execution
 * params are: any JSON a caller sent stores as it came.
 */
import type { StoredSchedule } from '../../vocabulary/schedule.ts';
import { scheduleKey, schedulesPrefix } from '../keys.ts';
import type { AuditEvent, RuleScope, ScheduleStore, StoredRuleSchedule } from '../types.ts';
import { atRevision, atRevisionOrConflict } from './expressions.ts';
import { TableClient, type Item } from './table-client.ts';
import { parseJson } from '../../decimal/json.ts';

const describe = (scope: RuleScope) => `schedule of rule ${scope.ruleId} on ${scope.branch}`;

function toItem(scope: RuleScope, { schedule: { inputParam, ...schedule }, expression, state, revision, updatedAt }: StoredRuleSchedule): Item {
  return { ...scheduleKey(scope), ruleId: scope.ruleId, schedule, inputParamJson: JSON.stringify(inputParam), expression, state, revision, updatedAt };
}

/** The rule an item is the schedule of: its partition names the workspace and the branch (neither holds ":"). */
function scopeOf(item: Item): RuleScope {
  const [, workspaceId, branch] = /^SCHED:([^:]+):(.+)$/.exec(item.PK as string)!;
  return { workspaceId: workspaceId!, branch: branch!, ruleId: item.ruleId as string };
}

function fromItem(item: Item): StoredRuleSchedule {
  const { unit, isEnabled, startAt, endAt, timezone, spec } = item.schedule as Omit<StoredSchedule, 'inputParam'>;
  // In the key order a save makes, so that the stored schedule and a new one compare as JSON.
  const schedule: StoredSchedule = {
    unit,
    isEnabled,
    ...(startAt && { startAt }),
    ...(endAt && { endAt }),
    timezone,
    spec: { minute: spec.minute, hour: spec.hour, dayOfMonth: spec.dayOfMonth, month: spec.month, dayOfWeek: spec.dayOfWeek },
    inputParam: parseJson(item.inputParamJson as string) as Record<string, unknown>,
  };
  return {
    schedule,
    expression: item.expression as string,
    state: item.state as StoredRuleSchedule['state'],
    revision: item.revision as number,
    updatedAt: item.updatedAt as string,
  };
}

export class DynamoScheduleStore extends TableClient implements ScheduleStore {
  async getSchedule(scope: RuleScope) {
    const item = await this.get(scheduleKey(scope), undefined, true);
    return item && fromItem(item);
  }

  async putSchedule(scope: RuleScope, schedule: StoredRuleSchedule, expectedRevision: number, audit?: AuditEvent) {
    await atRevisionOrConflict(
      describe(scope),
      this.write(scope.workspaceId, { Put: { TableName: this.tableName, Item: toItem(scope, schedule), ...atRevision(expectedRevision) } }, audit),
    );
  }

  async scanSchedules() {
    const items = await this.scanAll({ FilterExpression: 'begins_with(PK, :prefix)', ExpressionAttributeValues: { ':prefix': schedulesPrefix } });
    return items.map((item) => ({ scope: scopeOf(item), schedule: fromItem(item) }));
  }

  async deleteSchedule(scope: RuleScope, expectedRevision: number, audit?: AuditEvent) {
    await atRevisionOrConflict(
      describe(scope),
      this.write(scope.workspaceId, { Delete: { TableName: this.tableName, Key: scheduleKey(scope), ...atRevision(expectedRevision) } }, audit),
    );
  }
}

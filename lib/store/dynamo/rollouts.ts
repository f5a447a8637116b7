/**
 * A rollout's sampled disagreements: one item each, in the rule's rollout
 * partition, keyed by rollout, time and execution, kept for a fixed time by
 * the table's time to live. Input and both outcomes are JSON text, as an
 * execution's are, so numbers keep every digit. Reads leave out what has
 * expired but is not deleted yet, by key.
 */
import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { parseJson } from '../../decimal/json.ts';
import { rolloutSampleKey, rolloutSamplePartition, rolloutSamplePrefix } from '../keys.ts';
import { tableDefinition } from '../table.ts';
import { rolloutSampleRetentionDays, type RolloutSample, type RolloutStore, type RuleScope } from '../types.ts';
import { TableClient, type Item } from './table-client.ts';

const retentionMs = rolloutSampleRetentionDays * 24 * 3600 * 1000;
/** Above every character a sort key holds after the rollout's prefix. */
const endOfPrefix = '\uffff';

const fromItem = (item: Item): RolloutSample => ({
  executionId: String(item.executionId),
  at: String(item.at),
  servedBy: item.servedBy as RolloutSample['servedBy'],
  input: parseJson(String(item.inputJson)),
  baseline: parseJson(String(item.baselineJson)) as RolloutSample['baseline'],
  candidate: parseJson(String(item.candidateJson)) as RolloutSample['candidate'],
});

export class DynamoRolloutStore extends TableClient implements RolloutStore {
  async putRolloutSample(scope: RuleScope, rolloutId: string, sample: RolloutSample) {
    await this.client.send(
      new PutCommand({
        TableName: this.tableName,
        Item: {
          ...rolloutSampleKey(scope, rolloutId, sample.at, sample.executionId),
          executionId: sample.executionId,
          at: sample.at,
          servedBy: sample.servedBy,
          inputJson: JSON.stringify(sample.input ?? null),
          baselineJson: JSON.stringify(sample.baseline),
          candidateJson: JSON.stringify(sample.candidate),
          [tableDefinition.timeToLiveAttribute]: Math.floor((Date.parse(sample.at) + retentionMs) / 1000),
        },
      }),
    );
  }

  async listRolloutSamples(scope: RuleScope, rolloutId: string, limit: number, now: string) {
    const prefix = rolloutSamplePrefix(rolloutId);
    // Sort keys start with the time the execution ran: what ran before the cutoff has expired.
    const cutoff = new Date(Date.parse(now) - retentionMs).toISOString();
    const samples: RolloutSample[] = [];
    let ExclusiveStartKey: Item | undefined;
    // A page stops at 1 MB: a few large samples can take more than one.
    do {
      const page = await this.client.send(
        new QueryCommand({
          TableName: this.tableName,
          KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
          ExpressionAttributeValues: { ':pk': rolloutSamplePartition(scope), ':from': `${prefix}${cutoff}`, ':to': `${prefix}${endOfPrefix}` },
          ScanIndexForward: false,
          Limit: limit - samples.length,
          ExclusiveStartKey,
        }),
      );
      samples.push(...(page.Items ?? []).map(fromItem));
      ExclusiveStartKey = page.LastEvaluatedKey;
    } while (ExclusiveStartKey && samples.length < limit);
    return samples;
  }
}

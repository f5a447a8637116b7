/**
 * Tally items: one per rule and name (`coverage:v3`), each count a
 * top-level number attribute that UpdateItem's ADD adds to, so that every
 * function's flush adds to the others' and none is lost, without a read or
 * a condition. A count `c` is kept as `c:<c>` and its latest time as
 * `t:<c>`, apart from the keys. An update expression is bounded (4 KB):
 * one update holds at most `talliesPerUpdate` counts and times.
 */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { tallyKey, tallyPartition } from '../keys.ts';
import { talliesPerUpdate, type NamedTallies, type RuleScope, type StoredTallies, type TallyKey, type TallyStore } from '../types.ts';
import { TableClient } from './table-client.ts';

const countPrefix = 'c:';
const latestPrefix = 't:';

export class DynamoTallyStore extends TableClient implements TallyStore {
  async addTallies(key: TallyKey, counts: Record<string, number>, latest: Record<string, string>) {
    const changes = [
      ...Object.entries(counts).map(([name, value]) => ({ add: true, attribute: countPrefix + name, value })),
      ...Object.entries(latest).map(([name, value]) => ({ add: false, attribute: latestPrefix + name, value })),
    ];
    if (changes.length > talliesPerUpdate) throw new Error(`at most ${talliesPerUpdate} tallies in one update, not ${changes.length}`);
    const names = Object.fromEntries(changes.map((change, i) => [`#n${i}`, change.attribute]));
    const values = Object.fromEntries(changes.map((change, i) => [`:v${i}`, change.value]));
    const adds = changes.flatMap((change, i) => (change.add ? [`#n${i} :v${i}`] : []));
    const sets = changes.flatMap((change, i) => (change.add ? [] : [`#n${i} = :v${i}`]));
    await this.client.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: tallyKey(key),
        UpdateExpression: [adds.length ? `ADD ${adds.join(', ')}` : '', sets.length ? `SET ${sets.join(', ')}` : ''].join(' ').trim(),
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      }),
    );
  }

  async getTallies(key: TallyKey): Promise<StoredTallies | undefined> {
    const { Item } = await this.client.send(new GetCommand({ TableName: this.tableName, Key: tallyKey(key), ConsistentRead: true }));
    return Item && talliesOf(Item);
  }

  async listTallies(scope: RuleScope, prefix: string): Promise<NamedTallies[]> {
    const items = await this.queryAll({
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':pk': tallyPartition(scope), ':prefix': prefix },
      ConsistentRead: true,
    });
    return items.map((item) => ({ name: String(item.SK), ...talliesOf(item) }));
  }
}

function talliesOf(item: Record<string, unknown>): StoredTallies {
  const counters: StoredTallies = { counts: {}, latest: {} };
  for (const [attribute, value] of Object.entries(item)) {
    if (attribute.startsWith(countPrefix)) counters.counts[attribute.slice(countPrefix.length)] = Number(value);
    else if (attribute.startsWith(latestPrefix)) counters.latest[attribute.slice(latestPrefix.length)] = String(value);
  }
  return counters;
}

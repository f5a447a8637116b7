/**
 * The baseline a list call is compared with: a bare DynamoDB query that
 * fetches the same page, through a document client with the functions' client
 * settings and nothing else (no authentication, validation or envelope). One
 * Query on the name index for the branch's rule partition, starting after the
 * counter item that heads the partition, projecting the same summary
 * attributes.
 */
import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { entitySummarySchema } from '../../lib/vocabulary/records.ts';
import { createDocumentClient, type DynamoConfig } from '../../lib/store/dynamo/client.ts';
import { counterSortKey, entityPartition } from '../../lib/store/keys.ts';
import { tableDefinition } from '../../lib/store/table.ts';
import type { EntityScope } from '../../lib/store/types.ts';

const summaryFields = Object.keys(entitySummarySchema.shape);

export function bareReads(config: DynamoConfig) {
  const client = createDocumentClient(config);
  const { byName } = tableDefinition.indexes;
  const pageInput = (scope: EntityScope, pageSize: number): QueryCommandInput => ({
    TableName: config.tableName,
    IndexName: byName.name,
    KeyConditionExpression: '#pk = :pk AND #sk > :counter',
    // Names, because name and status are reserved words.
    ProjectionExpression: summaryFields.map((_, i) => `#f${i}`).join(', '),
    ExpressionAttributeNames: {
      '#pk': byName.partitionKey,
      '#sk': byName.sortKey,
      ...Object.fromEntries(summaryFields.map((field, i) => [`#f${i}`, field])),
    },
    ExpressionAttributeValues: { ':pk': entityPartition(scope.workspaceId, scope.branch, scope.entityType), ':counter': counterSortKey },
    Limit: pageSize,
  });
  return {
    /** Prepares the Query (built when the call is prepared, outside any timing); the call resolves to the page's items. */
    firstPage(scope: EntityScope, pageSize: number) {
      const command = new QueryCommand(pageInput(scope, pageSize));
      return async () => (await client.send(command)).Items ?? [];
    },
    close: () => client.destroy(),
  };
}

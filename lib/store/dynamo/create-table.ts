import { CreateTableCommand, DescribeTableCommand, DynamoDBClient, type CreateTableCommandInput } from '@aws-sdk/client-dynamodb';
import { allIndexes, tableDefinition } from '../table.ts';
import { clientConfig, type DynamoConfig } from './client.ts';

/** The CreateTable request for the table definition; the stack builds the same table through CDK. */
export function createTableInput(tableName: string): CreateTableCommandInput {
  const keyAttributes = [tableDefinition.partitionKey, tableDefinition.sortKey, ...allIndexes.flatMap((i) => [i.partitionKey, i.sortKey])];
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: keyAttributes.map((AttributeName) => ({ AttributeName, AttributeType: 'S' })),
    KeySchema: [
      { AttributeName: tableDefinition.partitionKey, KeyType: 'HASH' },
      { AttributeName: tableDefinition.sortKey, KeyType: 'RANGE' },
    ],
    GlobalSecondaryIndexes: allIndexes.map((index) => ({
      IndexName: index.name,
      KeySchema: [
        { AttributeName: index.partitionKey, KeyType: 'HASH' },
        { AttributeName: index.sortKey, KeyType: 'RANGE' },
      ],
      Projection: { ProjectionType: 'INCLUDE', NonKeyAttributes: [...index.projectedAttributes] },
    })),
  };
}

/** Creates the table in the embedded DynamoDB unless it exists (a kept data directory already has it). */
export async function ensureTable(config: DynamoConfig): Promise<void> {
  const client = new DynamoDBClient(clientConfig(config));
  try {
    await client.send(new DescribeTableCommand({ TableName: config.tableName }));
  } catch (error) {
    if ((error as Error).name !== 'ResourceNotFoundException') throw error;
    // No time-to-live setting here: the embedded DynamoDB does not implement it.
    await client.send(new CreateTableCommand(createTableInput(config.tableName)));
  } finally {
    client.destroy();
  }
}

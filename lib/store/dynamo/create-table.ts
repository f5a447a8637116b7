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

/** How long a new table may take to become active, and how often it is asked: the embedded DynamoDB takes a few milliseconds. */
const activeWait = { timeoutMs: 10_000, pollMs: 10 };

/**
 * Creates the table in the embedded DynamoDB unless it exists (a kept data
 * directory already has it), and returns once it takes writes: a new table
 * is CREATING at first (in dynalite, until a write of its own status lands
 * on disk), and a write before then is refused as if there were no table.
 */
export async function ensureTable(config: DynamoConfig): Promise<void> {
  const client = new DynamoDBClient(clientConfig(config));
  const status = async () => (await client.send(new DescribeTableCommand({ TableName: config.tableName }))).Table?.TableStatus;
  try {
    let state: string | undefined;
    try {
      state = await status();
    } catch (error) {
      if ((error as Error).name !== 'ResourceNotFoundException') throw error;
      // No time-to-live setting here: the embedded DynamoDB does not implement it.
      await client.send(new CreateTableCommand(createTableInput(config.tableName)));
    }
    const deadline = Date.now() + activeWait.timeoutMs;
    while (state !== 'ACTIVE') {
      if (Date.now() > deadline) throw new Error(`The table ${config.tableName} was not active ${activeWait.timeoutMs / 1000} s after it was made.`);
      if (state !== undefined) await new Promise((resolve) => setTimeout(resolve, activeWait.pollMs));
      state = await status();
    }
  } finally {
    client.destroy();
  }
}

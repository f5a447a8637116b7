import { DynamoDBClient, type DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

export interface DynamoConfig {
  tableName: string;
  /** Set for the embedded DynamoDB of the local runtime and tests; unset on AWS. */
  endpoint?: string;
  region?: string;
}

export function dynamoConfigFromEnv(env: NodeJS.ProcessEnv = process.env): DynamoConfig {
  const tableName = env.TABLE_NAME;
  if (!tableName) throw new Error('TABLE_NAME is not set');
  return { tableName, endpoint: env.DYNAMODB_ENDPOINT || undefined, region: env.AWS_REGION };
}

export const clientConfig = (config: DynamoConfig): DynamoDBClientConfig =>
  config.endpoint
    ? // The embedded DynamoDB ignores credentials, but the SDK insists on some.
      { endpoint: config.endpoint, region: config.region ?? 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }
    : { region: config.region };

export function createDocumentClient(config: DynamoConfig): DynamoDBDocumentClient {
  return DynamoDBDocumentClient.from(new DynamoDBClient(clientConfig(config)), {
    marshallOptions: { removeUndefinedValues: true },
  });
}

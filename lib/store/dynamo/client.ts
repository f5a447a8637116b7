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

export type ClientPlugin = Parameters<DynamoDBClient['middlewareStack']['use']>[0];

/**
 * Added to every client made from then on. None in the service: the fault
 * tests add a middleware that throttles, fails or loses answers inside the
 * SDK's retries, so that the store's own code meets them as it would on AWS.
 */
const plugins = new Set<ClientPlugin>();

/** Adds `plugin` to the clients made from now on; the returned function stops adding it. */
export function addClientPlugin(plugin: ClientPlugin): () => void {
  plugins.add(plugin);
  return () => void plugins.delete(plugin);
}

export function createDocumentClient(config: DynamoConfig): DynamoDBDocumentClient {
  const client = new DynamoDBClient(clientConfig(config));
  for (const plugin of plugins) client.middlewareStack.use(plugin);
  return DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });
}

import { DynamoDBClient, type DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, NumberValue } from '@aws-sdk/lib-dynamodb';
import { Decimal, parseNumber } from '../../decimal/decimal.ts';

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

/**
 * A number read back exactly (DynamoDB keeps 38 digits): a double when the
 * double's text is the number, a `Decimal` otherwise. The document client's
 * default, a double, would round `0.30000000000000001`.
 */
const readNumber = (text: string) => parseNumber(text) ?? Number(text);

/**
 * `value` with each `Decimal` as the document client's `NumberValue` of its
 * digits (the client knows no other exact number); copied only where one is
 * found, so the usual item, which holds none, is not copied at all.
 */
export function withStoredNumbers(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (value instanceof Decimal) return NumberValue.from(value.toString());
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      // Strings, numbers and booleans (most of an item) are passed over without a call.
      if (typeof item !== 'object' || item === null) continue;
      const stored = withStoredNumbers(item);
      if (stored !== item) (copy ??= [...value])[i] = stored;
    }
    return copy ?? value;
  }
  // Sets, binary and NumberValue are the client's own.
  if (Object.getPrototypeOf(value) !== Object.prototype) return value;
  let copy: Record<string, unknown> | undefined;
  for (const key in value) {
    const item: unknown = (value as Record<string, unknown>)[key];
    if (typeof item !== 'object' || item === null) continue;
    const stored = withStoredNumbers(item);
    // defineProperty: a "__proto__" entry stays an entry.
    if (stored !== item) Object.defineProperty((copy ??= { ...value }), key, { value: stored, enumerable: true, writable: true, configurable: true });
  }
  return copy ?? value;
}

export function createDocumentClient(config: DynamoConfig): DynamoDBDocumentClient {
  const client = new DynamoDBClient(clientConfig(config));
  for (const plugin of plugins) client.middlewareStack.use(plugin);
  const documents = DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true }, unmarshallOptions: { wrapNumbers: readNumber } });
  // Before the document client marshalls (at serialize), so that it meets NumberValues, not Decimals.
  documents.middlewareStack.add((next) => (args) => next({ ...args, input: withStoredNumbers(args.input) as typeof args.input }), {
    step: 'initialize',
    name: 'storeDecimals',
  });
  return documents;
}

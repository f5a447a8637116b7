/**
 * What DynamoDB read to serve metered requests: each read is sent again with
 * ReturnConsumedCapacity, which the function's own requests do not ask for.
 * Reads are repeatable, so the replay consumes what the original did.
 */
import { DynamoDBClient, GetItemCommand, QueryCommand, type GetItemCommandInput, type QueryCommandInput } from '@aws-sdk/client-dynamodb';
import type { MeteredRequest } from './request-meter.ts';

export interface ReadCost {
  /** Read capacity units, as DynamoDB would bill them. */
  capacityUnits: number;
  /** Items DynamoDB read (Query's ScannedCount; 1 for a GetItem that found its item). */
  itemsRead: number;
}

export function capacityReplayer(endpoint: string) {
  // The low-level client takes the wire format as its input, so bodies go back unchanged.
  const client = new DynamoDBClient({ endpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  const replay = async ({ operation, body }: MeteredRequest): Promise<ReadCost> => {
    const input = { ...JSON.parse(body), ReturnConsumedCapacity: 'TOTAL' };
    switch (operation) {
      case 'Query': {
        const out = await client.send(new QueryCommand(input as QueryCommandInput));
        return { capacityUnits: out.ConsumedCapacity?.CapacityUnits ?? 0, itemsRead: out.ScannedCount ?? 0 };
      }
      case 'GetItem': {
        const out = await client.send(new GetItemCommand(input as GetItemCommandInput));
        return { capacityUnits: out.ConsumedCapacity?.CapacityUnits ?? 0, itemsRead: out.Item ? 1 : 0 };
      }
      default:
        throw new Error(`a list call made a ${operation} request, which the benchmark does not know how to cost`);
    }
  };
  return {
    async costOf(requests: readonly MeteredRequest[]): Promise<ReadCost> {
      const total = { capacityUnits: 0, itemsRead: 0 };
      for (const request of requests) {
        const cost = await replay(request);
        total.capacityUnits += cost.capacityUnits;
        total.itemsRead += cost.itemsRead;
      }
      return total;
    },
    close: () => client.destroy(),
  };
}

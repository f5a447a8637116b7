import { mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import dynalite from 'dynalite';

export interface EmbeddedDynamo {
  endpoint: string;
  close(): Promise<void>;
}

/**
 * DynamoDB in this process (dynalite): in memory, or kept in `dataDir`. It
 * listens on loopback only; port 0 picks a free one.
 */
export async function startEmbeddedDynamo(options: { dataDir?: string; port?: number } = {}): Promise<EmbeddedDynamo> {
  // Table changes take effect at once instead of after dynalite's simulated delays.
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  const server = dynalite({ path: options.dataDir, createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

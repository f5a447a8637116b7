/** What a test file's process writes, captured so that a test can scan every log line for secrets. */
import { format } from 'node:util';
import { afterAll, beforeAll, vi } from 'vitest';

/**
 * Captures everything written to stdout, stderr and the console from the
 * file's first beforeAll on. Call it before `useRuntime`, so that it is
 * registered first and sees the runtime start.
 */
export function captureOutput(): string[] {
  const output: string[] = [];
  beforeAll(() => {
    for (const stream of [process.stdout, process.stderr])
      vi.spyOn(stream, 'write').mockImplementation(((chunk: string | Uint8Array) => {
        output.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
        return true;
      }) as typeof stream.write);
    for (const method of ['log', 'info', 'warn', 'error', 'debug', 'trace'] as const)
      vi.spyOn(console, method).mockImplementation((...args: unknown[]) => void output.push(format(...args)));
  });
  afterAll(() => {
    vi.restoreAllMocks();
  });
  return output;
}

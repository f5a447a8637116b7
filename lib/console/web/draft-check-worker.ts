/**
 * The draft check (`./draft-check.ts`) on a thread of its own: a large
 * definition takes the check hundreds of milliseconds, which on the page's
 * thread would stop typing each time it ran. An entry of the build of its
 * own (`lib/console/build.ts`), started as a module worker on the first edit.
 */
import { parseJson } from '../../decimal/json.ts';
import type { EntityType } from '../../vocabulary/kinds.ts';
import { draftProblems, type DraftCheck } from './draft-check.ts';

/** What the page asks: a record as JSON text (read with its numbers exact, as the API reads a save), and the number its answer carries back. */
export interface DraftCheckRequest {
  id: number;
  entityType: EntityType;
  record: string;
}

export interface DraftCheckAnswer {
  id: number;
  check: DraftCheck;
}

/** The worker's side of its port (the project's type check knows the page's globals, not a worker's). */
const port = self as unknown as { onmessage: ((event: MessageEvent<DraftCheckRequest>) => void) | null; postMessage(answer: DraftCheckAnswer): void };

port.onmessage = ({ data }) => port.postMessage({ id: data.id, check: draftProblems(data.entityType, parseJson(data.record) as Record<string, unknown>) });

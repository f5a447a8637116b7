/** The shapes the workflow editor reads, taken from the generated schema so that they follow the API. */
import type { paths } from '../schema.ts';

type Ok<T> = T extends { responses: { 200: { content: { 'application/json': { data: infer D } } } } } ? D : never;
type Accepted<T> = T extends { responses: { 202: { content: { 'application/json': { data: infer D } } } } } ? D : never;

export type Entity = Ok<paths['/dev/v1/{entityType}/{entityId}']['get']>;
/** A workflow's run, as /test and /execute answer it (their rule answers left out). */
export type Run = Extract<Ok<paths['/dev/v1/{entityType}/{entityId}/test']['post']>, { steps: unknown }>;
export type StepResult = Run['steps'][number];
export type StepTestResult = Ok<paths['/dev/v1/{entityType}/{entityId}/steps/{stepId}/test']['post']>;
/** A queued run, as /execute with `async: true` answers it (202). */
export type Queued = Accepted<paths['/dev/v1/{entityType}/{entityId}/execute']['post']>;
/** A task to follow; a queued run's holds the run in `workflowRun.result` once it ended. */
export type { Task } from '../ui/follow-task.ts';

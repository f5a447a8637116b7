/**
 * The one import for the store's types: its ports (`./ports.ts`) and its
 * data model, one module per aggregate (`./model/`), with the model's own
 * small derivations (scopes, open task states, retention). Re-exported here
 * so that the domain need not know how the store is cut. The revision
 * conflict and its retry are behaviour, not types: `./revision-retry.ts`.
 */
export * from './ports.ts';
export * from './model/directory.ts';
export * from './model/entities.ts';
export * from './model/executions.ts';
export * from './model/schedules.ts';
export * from './model/tasks.ts';
export * from './model/remote.ts';
export * from './model/credentials.ts';
export * from './model/integrations.ts';
export * from './model/name-claims.ts';
export * from './model/audit.ts';
export * from './model/change-requests.ts';
export * from './model/tallies.ts';
export * from './model/rollouts.ts';

/** The store's public surface, and the DynamoDB-backed instance a function uses. */
import { cachedDirectory } from './cached-directory.ts';
import { DynamoAuditChain } from './dynamo/audit.ts';
import { DynamoChangeRequestStore } from './dynamo/change-requests.ts';
import { createDocumentClient, dynamoConfigFromEnv, type DynamoConfig } from './dynamo/client.ts';
import { DynamoTallyStore } from './dynamo/tallies.ts';
import { DynamoCredentialStore } from './dynamo/credentials.ts';
import { DynamoDirectoryStore } from './dynamo/directory.ts';
import { DynamoEntityStore } from './dynamo/entities.ts';
import { DynamoExecutionStore } from './dynamo/executions.ts';
import { DynamoIntegrationStore } from './dynamo/integrations.ts';
import { DynamoNameClaimStore } from './dynamo/name-claims.ts';
import { DynamoRolloutStore } from './dynamo/rollouts.ts';
import { DynamoScheduleStore } from './dynamo/schedules.ts';
import { DynamoRemoteStore } from './dynamo/remote.ts';
import { DynamoTaskStore } from './dynamo/tasks.ts';
import type { DirectoryStore, Store } from './types.ts';

export * from './types.ts';
export { tableDefinition } from './table.ts';

/** One object with every part's methods, each bound by name, so that callers see a single store and the compiler checks each method against its port. */
export function createStore(config: DynamoConfig): Store {
  const client = createDocumentClient(config);
  const directory = new DynamoDirectoryStore(client, config.tableName);
  const entities = new DynamoEntityStore(client, config.tableName);
  const executions = new DynamoExecutionStore(client, config.tableName);
  const schedules = new DynamoScheduleStore(client, config.tableName);
  const tasks = new DynamoTaskStore(client, config.tableName);
  const remote = new DynamoRemoteStore(client, config.tableName);
  const names = new DynamoNameClaimStore(client, config.tableName);
  const credentials = new DynamoCredentialStore(client, config.tableName);
  const integrations = new DynamoIntegrationStore(client, config.tableName);
  const audit = new DynamoAuditChain(client, config.tableName);
  const changeRequests = new DynamoChangeRequestStore(client, config.tableName);
  const tallies = new DynamoTallyStore(client, config.tableName);
  const rollouts = new DynamoRolloutStore(client, config.tableName);
  return {
    getWorkspace: directory.getWorkspace.bind(directory),
    listWorkspaces: directory.listWorkspaces.bind(directory),
    createWorkspace: directory.createWorkspace.bind(directory),
    getBranch: directory.getBranch.bind(directory),
    createBranch: directory.createBranch.bind(directory),
    listBranches: directory.listBranches.bind(directory),
    setBranchProtection: directory.setBranchProtection.bind(directory),
    setWorkspaceAccess: directory.setWorkspaceAccess.bind(directory),
    getApiKeyByHash: directory.getApiKeyByHash.bind(directory),
    createApiKey: directory.createApiKey.bind(directory),
    listApiKeys: directory.listApiKeys.bind(directory),
    getApiKeyById: directory.getApiKeyById.bind(directory),
    updateApiKey: directory.updateApiKey.bind(directory),

    listEntities: entities.listEntities.bind(entities),
    getEntity: entities.getEntity.bind(entities),
    getEntityHead: entities.getEntityHead.bind(entities),
    getEntityHeads: entities.getEntityHeads.bind(entities),
    getVersion: entities.getVersion.bind(entities),
    listVersions: entities.listVersions.bind(entities),
    putEntity: entities.putEntity.bind(entities),
    writeEntities: entities.writeEntities.bind(entities),
    recount: entities.recount.bind(entities),
    listEntityStates: entities.listEntityStates.bind(entities),
    putVersion: entities.putVersion.bind(entities),
    deleteEntity: entities.deleteEntity.bind(entities),
    deleteVersions: entities.deleteVersions.bind(entities),

    addTallies: tallies.addTallies.bind(tallies),
    getTallies: tallies.getTallies.bind(tallies),
    listTallies: tallies.listTallies.bind(tallies),

    putRolloutSample: rollouts.putRolloutSample.bind(rollouts),
    listRolloutSamples: rollouts.listRolloutSamples.bind(rollouts),

    putExecution: executions.putExecution.bind(executions),
    putExecutions: executions.putExecutions.bind(executions),
    listExecutions: executions.listExecutions.bind(executions),
    splitExecutions: executions.splitExecutions.bind(executions),
    readExecutionRange: executions.readExecutionRange.bind(executions),

    getSchedule: schedules.getSchedule.bind(schedules),
    putSchedule: schedules.putSchedule.bind(schedules),
    deleteSchedule: schedules.deleteSchedule.bind(schedules),
    scanSchedules: schedules.scanSchedules.bind(schedules),

    getTask: tasks.getTask.bind(tasks),
    createTask: tasks.createTask.bind(tasks),
    transitionTask: tasks.transitionTask.bind(tasks),
    listOverdueTasks: tasks.listOverdueTasks.bind(tasks),
    putTaskPart: tasks.putTaskPart.bind(tasks),
    readTaskParts: tasks.readTaskParts.bind(tasks),
    markShardDone: tasks.markShardDone.bind(tasks),
    getRemote: remote.getRemote.bind(remote),
    putRemote: remote.putRemote.bind(remote),
    getBranchSync: remote.getBranchSync.bind(remote),
    claimBranchSync: remote.claimBranchSync.bind(remote),
    releaseBranchSync: remote.releaseBranchSync.bind(remote),

    claimName: names.claimName.bind(names),
    releaseName: names.releaseName.bind(names),

    getCredential: credentials.getCredential.bind(credentials),
    listCredentials: credentials.listCredentials.bind(credentials),
    putCredential: credentials.putCredential.bind(credentials),
    bindCredentialHosts: credentials.bindCredentialHosts.bind(credentials),

    getIntegration: integrations.getIntegration.bind(integrations),
    listIntegrations: integrations.listIntegrations.bind(integrations),
    putIntegration: integrations.putIntegration.bind(integrations),
    deleteIntegration: integrations.deleteIntegration.bind(integrations),

    getChangeRequest: changeRequests.getChangeRequest.bind(changeRequests),
    listChangeRequests: changeRequests.listChangeRequests.bind(changeRequests),
    createChangeRequest: changeRequests.createChangeRequest.bind(changeRequests),
    approveChangeRequest: changeRequests.approveChangeRequest.bind(changeRequests),
    closeChangeRequest: changeRequests.closeChangeRequest.bind(changeRequests),

    appendAudit: (workspaceId, event) => audit.append(workspaceId, event),
    getAuditHead: audit.getAuditHead.bind(audit),
    readAudit: audit.readAudit.bind(audit),
  };
}

let fromEnv: { store: Store; directory: DirectoryStore } | undefined;

/** One store per process, configured by TABLE_NAME (and DYNAMODB_ENDPOINT locally), made on first use. */
export function storeFromEnv() {
  if (!fromEnv) {
    const store = createStore(dynamoConfigFromEnv());
    fromEnv = { store, directory: cachedDirectory(store, Number(process.env.DIRECTORY_CACHE_TTL_MS ?? 30_000)) };
  }
  return fromEnv;
}

/**
 * The route table: the one list of operations. The CDK stack makes an API
 * Gateway method and a function from each entry, the local runtime serves the
 * same entries with the same handlers, and the OpenAPI document is written from
 * it (with the response schemas of `lib/openapi/responses/`, kept apart so
 * that the functions do not bundle them). Each area keeps its routes beside
 * its code, and a function imports only its area's, so that it bundles only
 * the schemas it uses.
 */
import { auditRoutes } from '../audit/routes.ts';
import { changeRoutes } from '../changes/routes.ts';
import { coverageRoutes } from '../coverage/routes.ts';
import { credentialRoutes } from '../credentials/routes.ts';
import { authoringRoutes } from '../authoring/routes.ts';
import { entityRoutes } from '../entities/routes.ts';
import { integrationRoutes } from '../integrations/routes.ts';
import { interchangeRoutes } from '../interchange/routes.ts';
import { contractRoutes } from './openapi-routes.ts';
import { remoteConfigRoutes, remoteSyncRoutes } from '../remote/routes.ts';
import { taskRoutes } from '../tasks/routes.ts';
import { replayRoutes } from '../replay/routes.ts';
import { rolloutRoutes } from '../rollout/routes.ts';
import { runRoutes } from '../rules/routes.ts';
import { scheduleRoutes } from '../schedules/routes.ts';
import { workflowRoutes } from '../workflows/routes.ts';
import { workspaceRoutes } from '../workspaces/routes.ts';
import type { Route } from '../http/route.ts';

const entityAreaRoutes = {
  ...entityRoutes,
  ...authoringRoutes,
  ...runRoutes,
  ...workflowRoutes,
  ...replayRoutes,
  ...scheduleRoutes,
  ...coverageRoutes,
  ...rolloutRoutes,
};

export const routes = {
  ...entityAreaRoutes,
  ...interchangeRoutes,
  ...workspaceRoutes,
  ...credentialRoutes,
  ...integrationRoutes,
  ...remoteSyncRoutes,
  ...taskRoutes,
  ...remoteConfigRoutes,
  ...changeRoutes,
  ...auditRoutes,
  ...contractRoutes,
};

/** The areas of the API, each a tag of the OpenAPI document. */
export const areas = [
  {
    name: 'Rules and workflows',
    description:
      "The rules and workflows of a workspace branch: read, write and publish them, test, execute, replay and schedule rules, list their executions, and roll out a rule's candidate version (shadow or canary) before promoting it.",
    routes: entityAreaRoutes,
  },
  {
    name: 'Import and export',
    description: 'Rules from and to files of other tools: DMN 1.5 XML (Camunda, Drools), Excel and CSV, and GoRules JDM, with lossless round trips.',
    routes: interchangeRoutes,
  },
  { name: 'Workspace', description: "The key's workspace: its branches.", routes: workspaceRoutes },
  {
    name: 'Credentials',
    description: 'API-key credentials that integrations, API-request steps and the Git remote send to providers. Values are sealed and never shown.',
    routes: credentialRoutes,
  },
  {
    name: 'Integrations',
    description: 'REST integrations: the base URL, headers, credential and timeout that API-request steps share, and a test of a path against the provider.',
    routes: integrationRoutes,
  },
  {
    name: 'Remote pull, push and tasks',
    description: "The workspace's Git remote, pulls of a branch from it and pushes to it, and the tasks that follow each.",
    routes: { ...remoteSyncRoutes, ...taskRoutes, ...remoteConfigRoutes },
  },
  {
    name: 'Change requests',
    description: 'Maker-checker: protected branches, where a draft is published only through a change request approved by other people.',
    routes: changeRoutes,
  },
  {
    name: 'Audit',
    description: "The workspace's tamper-evident audit log: every write and refusal, chained by hashes, to list, verify and export.",
    routes: auditRoutes,
  },
  { name: 'Contract', description: 'This document.', routes: contractRoutes },
] as const;

export const routeList: readonly Route[] = Object.values(routes);

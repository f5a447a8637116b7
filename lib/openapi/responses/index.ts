/**
 * The answers of every operation, joined from the areas' modules beside this
 * one, for the OpenAPI document (../document.ts). Kept out of the areas'
 * folders so that no function bundles them: a function imports its area's
 * routes, never lib/openapi.
 */
import type { routes } from '../../api/routes.ts';
import { auditResponses } from './audit.ts';
import { authoringResponses } from './authoring.ts';
import { changeResponses } from './changes.ts';
import { contractResponses } from './contract.ts';
import { coverageResponses } from './coverage.ts';
import { credentialResponses } from './credentials.ts';
import { entityResponses } from './entities.ts';
import { integrationResponses } from './integrations.ts';
import { interchangeResponses } from './interchange.ts';
import { remoteResponses } from './remote.ts';
import { replayResponses } from './replay.ts';
import { rolloutResponses } from './rollout.ts';
import { runResponses } from './rules.ts';
import { scheduleResponses } from './schedules.ts';
import type { ResponsesOf } from './shared.ts';
import { taskResponses } from './tasks.ts';
import { workflowResponses } from './workflows.ts';
import { workspaceResponses } from './workspaces.ts';

/** Each operation's entry (./shared.ts says what an entry holds), in the route table's order. */
export const responses = {
  ...entityResponses,
  ...authoringResponses,
  ...runResponses,
  ...workflowResponses,
  ...replayResponses,
  ...scheduleResponses,
  ...coverageResponses,
  ...rolloutResponses,
  ...interchangeResponses,
  ...workspaceResponses,
  ...credentialResponses,
  ...integrationResponses,
  ...remoteResponses,
  ...taskResponses,
  ...changeResponses,
  ...auditResponses,
  ...contractResponses,
} satisfies ResponsesOf<typeof routes>;

/** Definitions written as authors write them, parsed by the shape schema (graph unchecked, as validateWorkflow takes them), so tests see defaults filled in as a save would. */
import { workflowShapeSchema, type WorkflowDefinition, type WorkflowDefinitionInput } from '../../lib/entities/workflow-definition.ts';

export const define = (input: WorkflowDefinitionInput): WorkflowDefinition => workflowShapeSchema.parse(input);

/** An order that is quoted by a rule, priced by an API, branched on and summed up. */
export const quoteFlow: WorkflowDefinitionInput = {
  inputs: [
    { name: 'order', type: 'context' },
    { name: 'orderDate', type: 'date' },
  ],
  start: 'risk',
  steps: [
    { id: 'risk', kind: 'rule', ruleId: 'risk-score', version: 'v2', inputs: { total: 'order.total', country: 'order.country' }, next: 'price-api' },
    {
      id: 'price-api',
      kind: 'apiRequest',
      request: {
        method: 'PUT',
        integrationId: 'pricing',
        path: '/quotes',
        query: { currency: '"EUR"', rush: 'risk.score > 50' },
        headers: { 'X-Order': 'order.id' },
        body: '{total: order.total, score: risk.score, on: string(orderDate)}',
      },
      retries: 1,
      acceptStatuses: [404],
      next: 'decide',
    },
    {
      id: 'decide',
      kind: 'branch',
      cases: [
        { when: 'price-api.status != 200', next: 'rejected' },
        { when: 'risk.score > 50', next: 'review' },
      ],
      otherwise: 'accept',
    },
    { id: 'review', kind: 'transform', set: { fee: 'price-api.body.price * 1.1', note: '"manual review"' }, next: 'reviewed' },
    { id: 'accept', kind: 'transform', set: { fee: 'price-api.body.price', note: '"accepted"' }, next: 'done' },
    { id: 'rejected', kind: 'end', output: { accepted: 'false', status: 'price-api.status' } },
    { id: 'reviewed', kind: 'end', output: { accepted: 'true', fee: 'review.fee', note: 'review.note' } },
    { id: 'done', kind: 'end', output: { accepted: 'true', fee: 'accept.fee', note: 'accept.note' } },
  ],
};

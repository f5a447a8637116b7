/** The workflow editor's step rename: the graph's references follow, and with the FEEL rename, every text that reads the step's result. */
import { describe, expect, it } from 'vitest';
import { renameStep } from '../../lib/console/web/workflows/model.ts';
import { renameReads } from '../../lib/engine/feel/rename.ts';
import { workflowDefinitionSchema } from '../../lib/entities/workflow-definition.ts';
import { validateWorkflow } from '../../lib/workflows/validate.ts';

const definition = workflowDefinitionSchema.parse({
  inputs: [{ name: 'order', type: 'context' }],
  start: 'quote',
  steps: [
    { id: 'quote', kind: 'apiRequest', request: { method: 'GET', url: 'https://shipping.example/quote', query: { weight: 'order.weight' } }, next: 'check' },
    { id: 'check', kind: 'branch', cases: [{ when: 'quote.body.price > 100', next: 'dear' }], otherwise: 'cheap' },
    { id: 'dear', kind: 'transform', set: { price: 'quote.body.price', quote: '"by hand"' }, next: 'cheap' },
    {
      id: 'cheap',
      kind: 'end',
      output: { price: 'quote.body.price', lines: 'for quote in order.quotes return quote.amount', headers: '{quote: 1}.quote' },
    },
  ],
});

describe('renameStep', () => {
  it('renames the step, what goes to it and the FEEL that reads it, nothing else', () => {
    const renamed = renameStep(definition, 0, 'offer', renameReads);
    expect(renamed.start).toBe('offer');
    expect(renamed.steps.map((step) => step.id)).toEqual(['offer', 'check', 'dear', 'cheap']);
    expect(renamed.steps[0]).toMatchObject({ request: { query: { weight: 'order.weight' } } });
    expect(renamed.steps[1]).toMatchObject({ cases: [{ when: 'offer.body.price > 100', next: 'dear' }] });
    expect(renamed.steps[2]).toMatchObject({ set: { price: 'offer.body.price', quote: '"by hand"' } });
    expect(renamed.steps[3]).toMatchObject({
      output: { price: 'offer.body.price', lines: 'for quote in order.quotes return quote.amount', headers: '{quote: 1}.quote' },
    });
    expect(validateWorkflow(renamed).problems).toEqual([]);
  });

  it('without the FEEL rename, leaves the reads for the save to name', () => {
    const renamed = renameStep(definition, 0, 'offer');
    expect(renamed.steps[1]).toMatchObject({ cases: [{ when: 'quote.body.price > 100', next: 'dear' }] });
    expect(validateWorkflow(renamed).problems.map((problem) => problem.path)).toEqual([
      'steps[1].cases[0].when',
      'steps[2].set.price',
      'steps[3].output.price',
    ]);
  });
});

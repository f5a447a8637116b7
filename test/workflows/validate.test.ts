/** Validation lists every problem of a workflow by path: the graph, the FEEL, and names not yet set where they are read. */
import { describe, expect, it } from 'vitest';
import { validateWorkflow } from '../../lib/workflows/validate.ts';
import { define, quoteFlow } from './helpers.ts';

const end = (id: string, output: Record<string, string> = {}) => ({ id, kind: 'end' as const, output });
const set = (id: string, next: string, values: Record<string, string> = { v: '1' }) => ({ id, kind: 'transform' as const, set: values, next });

describe('validateWorkflow', () => {
  it('accepts a valid graph and parses every expression', () => {
    const { problems, prepared } = validateWorkflow(define(quoteFlow), { rule: () => undefined, integration: () => undefined, credential: () => undefined });
    expect(problems).toEqual([]);
    expect(prepared.expressions.get('steps[1].request.headers["X-Order"]')).toEqual({ k: 'path', of: { k: 'var', name: 'order' }, name: 'id' });
    // A step id with "-" is one name, not a subtraction.
    expect(prepared.expressions.get('steps[2].cases[0].when')).toMatchObject({ k: 'cmp', l: { k: 'path', of: { k: 'var', name: 'price-api' } } });
  });

  it('accepts a name set on every path through a diamond', () => {
    const flow = define({
      inputs: [{ name: 'x', type: 'number' }],
      start: 'a',
      steps: [
        set('a', 'b'),
        { id: 'b', kind: 'branch', cases: [{ when: 'x > 1', next: 'c' }], otherwise: 'd' },
        set('c', 'e', { v: 'a.v' }),
        set('d', 'e'),
        end('e', { r: 'a.v + x' }),
      ],
    });
    expect(validateWorkflow(flow).problems).toEqual([]);
  });

  it('lists a missing start, unknown next steps, duplicate ids and unreachable steps', () => {
    const flow = define({ start: 'nope', steps: [set('a', 'ghost'), end('b'), end('b')] });
    expect(validateWorkflow(flow).problems).toEqual([
      { path: 'steps[2].id', message: '"b" is the id of steps[1] too' },
      { path: 'start', message: 'no step has the id "nope"' },
      { path: 'steps[0].next', message: 'no step has the id "ghost"' },
    ]);
    const unreachable = define({
      start: 'a',
      steps: [set('a', 'c'), set('b', 'c'), end('c'), { id: 'd', kind: 'branch', cases: [{ when: 'true', next: 'c' }], otherwise: 'zzz' }],
    });
    expect(validateWorkflow(unreachable).problems).toEqual([
      { path: 'steps[3].otherwise', message: 'no step has the id "zzz"' },
      { path: 'steps[1]', message: '"b" is not reachable from the start step "a"' },
      { path: 'steps[3]', message: '"d" is not reachable from the start step "a"' },
    ]);
  });

  it('lists every cycle at the edge that closes it, reachable or not', () => {
    const flow = define({
      start: 'a',
      steps: [
        set('a', 'b'),
        {
          id: 'b',
          kind: 'branch',
          cases: [
            { when: 'true', next: 'a' },
            { when: 'false', next: 'c' },
          ],
          otherwise: 'b',
        },
        end('c'),
        set('x', 'y'),
        set('y', 'x'),
      ],
    });
    const problems = validateWorkflow(flow).problems;
    expect(problems.filter((p) => p.message.startsWith('closes'))).toEqual([
      { path: 'steps[1].cases[0].next', message: 'closes a cycle: a → b → a' },
      { path: 'steps[1].otherwise', message: 'closes a cycle: b → b' },
      { path: 'steps[4].next', message: 'closes a cycle: x → y → x' },
    ]);
  });

  it('lists FEEL syntax errors with their positions', () => {
    const flow = define({ start: 'a', steps: [set('a', 'b', { ok: '1', bad: '1 +' }), end('b', { 'total sum': 'if then' })] });
    expect(validateWorkflow(flow).problems).toEqual([
      { path: 'steps[0].set.bad', message: 'the expression is incomplete at line 1, column 4' },
      { path: 'steps[1].output["total sum"]', message: expect.stringMatching(/at line 1, column \d+$/) },
    ]);
  });

  it('lists names not set on every path to where they are read', () => {
    const flow = define({
      inputs: [{ name: 'order', type: 'context' }],
      start: 'check',
      steps: [
        { id: 'check', kind: 'branch', cases: [{ when: 'order.total > 100 and later.v = 1', next: 'big' }], otherwise: 'join' },
        set('big', 'join', { discount: '0.1' }),
        set('join', 'done', { v: 'big.discount', w: 'for i in order.items return i * 2', u: 'check', z: 'nobody + 1' }),
        set('later', 'done'),
        end('done', { r: 'join.v' }),
      ],
    });
    expect(validateWorkflow(flow).problems).toEqual([
      { path: 'steps[3]', message: '"later" is not reachable from the start step "check"' },
      { path: 'steps[0].cases[0].when', message: 'reads "later", a step that never runs' },
      { path: 'steps[2].set.v', message: 'reads "big", which is not set on every path to this step' },
      { path: 'steps[2].set.u', message: 'reads "check", a branch step, which gives no value' },
      { path: 'steps[2].set.z', message: 'reads "nobody", which is neither a workflow input nor a step id' },
    ]);
  });

  it('asks the caller whether rules, integrations and credentials exist', () => {
    const flow = define({
      start: 'r',
      steps: [
        { id: 'r', kind: 'rule', ruleId: 'gone', next: 'i' },
        { id: 'i', kind: 'apiRequest', request: { method: 'GET', integrationId: 'crm', path: '/a' }, next: 'u' },
        { id: 'u', kind: 'apiRequest', request: { method: 'GET', url: 'https://x.test/' }, credentialId: 'key', next: 'e' },
        end('e'),
      ],
    });
    const no = (id: string) => `no "${id}"`;
    expect(validateWorkflow(flow, { rule: no, integration: no, credential: no }).problems).toEqual([
      { path: 'steps[0].ruleId', message: 'no "gone"' },
      { path: 'steps[1].request.integrationId', message: 'no "crm"' },
      { path: 'steps[2].credentialId', message: 'no "key"' },
    ]);
    expect(validateWorkflow(flow).problems).toEqual([]);
  });

  it('refuses an input that a step id would hide, and inputs declared twice', () => {
    const flow = define({
      inputs: [
        { name: 'a', type: 'number' },
        { name: 'a', type: 'string' },
      ],
      start: 'a',
      steps: [end('a')],
    });
    expect(validateWorkflow(flow).problems.map((p) => p.path)).toEqual(['inputs[1].name', 'inputs[0].name', 'inputs[1].name']);
  });
});

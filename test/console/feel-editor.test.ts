/**
 * The FEEL editor's pure parts: where a problem of the draft check is
 * underlined (read back from the message the save's own check writes, so
 * checked against that check), what completion offers (the engine's built-ins
 * with their signatures, and the names a field may read), and which names
 * those are in a rule set and in a workflow.
 */
import { feel } from '@bpmn-io/lang-feel';
import { ensureSyntaxTree, matchBrackets } from '@codemirror/language';
import { EditorState } from '@codemirror/state';
import { describe, expect, it } from 'vitest';
import { buildConsole } from '../../lib/console/build.ts';
import { recordProblems } from '../../lib/authoring/record-check.ts';
import { builtinSignatures } from '../../lib/engine/feel/builtin-signatures.ts';
import { FeelSyntaxError, parseExpression } from '../../lib/engine/feel/parse.ts';
import { withRanges } from '../../lib/console/web/feel/brackets.ts';
import { callSnippet, completionsOf, signatureText } from '../../lib/console/web/feel/completions.ts';
import { parameterNames, ruleSetNames, workflowNames } from '../../lib/console/web/feel/names.ts';
import { offsetOf, problemRanges } from '../../lib/console/web/feel/problem-range.ts';
import type { RuleSetDefinition } from '../../lib/engine/definitions.ts';
import type { WorkflowDefinition } from '../../lib/entities/workflow-definition.ts';

const parameters = [
  { name: 'age', type: 'number' as const },
  { name: 'country', type: 'string' as const },
];

/** The message the save gives a simple rule's condition. */
function saveProblem(when: string): string | undefined {
  const { issues } = recordProblems('rule', {
    id: 'r',
    name: 'r',
    description: '',
    tags: [],
    type: 'simpleRule',
    definition: { parameters, when, then: { ok: true } },
  });
  return issues.find((issue) => issue.field === 'definition.when')?.message;
}

const underlined = (text: string, problem: string) => problemRanges(text, problem).map(({ from, to }) => text.slice(from, to));

describe('the underline of a problem', () => {
  it('covers what the save reports as unexpected, on any line', () => {
    expect(underlined('age > 18 ]', saveProblem('age > 18 ]')!)).toEqual([']']);
    const twoLines = 'age > 18 and\n  country = "CH" )';
    expect(saveProblem(twoLines)).toContain('line 2');
    expect(underlined(twoLines, saveProblem(twoLines)!)).toEqual([')']);
    expect(underlined('age >= 18 and country = "CH" "DE"', saveProblem('age >= 18 and country = "CH" "DE"')!)).toEqual(['"DE"']);
  });

  it('marks the last character of text that ends too soon, a name that is not declared where it is read, else the whole text', () => {
    expect(saveProblem('age >')).toContain('incomplete');
    expect(underlined('age >', saveProblem('age >')!)).toEqual(['>']);
    expect(underlined('age >  \n', 'the expression is incomplete at line 2, column 1')).toEqual(['>']);
    expect(saveProblem('x > 3 or x < age')).toBe('"x" is not a declared input (declared: age, country)');
    expect(problemRanges('x > 3 or x < age', saveProblem('x > 3 or x < age')!)).toEqual([
      { from: 0, to: 1 },
      { from: 9, to: 10 },
    ]);
    expect(underlined('xx > 3', '"x" is not a declared input')).toEqual(['xx > 3']);
    expect(underlined('age > "3"', 'must give a boolean')).toEqual(['age > "3"']);
    expect(problemRanges('', 'the expression is incomplete at line 1, column 1')).toEqual([{ from: 0, to: 0 }]);
  });

  it('reads every place of a FeelSyntaxError message, written "(line L, column C)"', () => {
    let error: unknown;
    try {
      parseExpression('a ] +\nb )', []);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(FeelSyntaxError);
    const message = (error as FeelSyntaxError).message;
    const ranges = problemRanges('a ] +\nb )', message);
    expect(ranges.length).toBe((error as FeelSyntaxError).problems.length);
    expect(ranges.map((r) => r.from)).toEqual((error as FeelSyntaxError).problems.map((p) => p.offset));
  });

  it('counts lines and columns as the check does, and keeps a place past a line within it', () => {
    expect(offsetOf('ab\ncd\nef', 3, 2)).toBe(7);
    expect(offsetOf('ab\ncd', 1, 9)).toBe(2);
    expect(offsetOf('ab', 5, 1)).toBe(2);
  });
});

describe('completion', () => {
  it('offers every built-in of the engine with its signature, and writes its call', () => {
    const offered = completionsOf([]);
    expect(offered.map((c) => c.label)).toEqual(Object.keys(builtinSignatures));
    expect(offered.find((c) => c.label === 'substring')).toEqual({
      label: 'substring',
      type: 'function',
      detail: '(string, start position, length?)',
      snippet: 'substring(${string}, ${start position})',
    });
    expect(offered.find((c) => c.label === 'date')?.detail).toBe('(from) or (year, month, day)');
    expect(callSnippet('now', [])).toBe('now()');
    expect(callSnippet('append', ['list', 'item...'])).toBe('append(${list}, ${item})');
    expect(signatureText([['list'], ['c...']])).toBe('(list) or (c...)');
  });

  it('offers the names first, each once, with where it comes from', () => {
    const offered = completionsOf([...parameterNames(parameters), { name: 'age', detail: 'again' }, { name: '' }]);
    expect(offered.slice(0, 3)).toEqual([
      { label: 'age', type: 'variable', detail: 'input: number' },
      { label: 'country', type: 'variable', detail: 'input: string' },
      { label: 'string', type: 'function', detail: '(from)', snippet: 'string(${from})' },
    ]);
  });
});

describe('the names a field may read', () => {
  it('in a rule set: the declared inputs and what the entries before it set', () => {
    const set: RuleSetDefinition = {
      parameters,
      rules: [
        { id: 'base', when: 'true', then: [{ set: 'limit.amount', value: 1000 }] },
        { id: 'other', ruleId: 'another-rule' },
        { id: 'raise', when: 'limit.amount > 500', then: [{ set: 'tier', value: '"gold"' }] },
      ],
    };
    expect(ruleSetNames(set, 0).map((n) => n.name)).toEqual(['age', 'country']);
    expect(ruleSetNames(set, 2)).toEqual([...parameterNames(parameters), { name: 'limit', detail: 'output of entry base' }]);
  });

  it('in a workflow: its inputs and the steps every run has passed through, as the check reckons them', () => {
    const workflow = {
      inputs: [{ name: 'order', type: 'context' }],
      start: 'price',
      steps: [
        { id: 'price', kind: 'rule', ruleId: 'pricing', next: 'route' },
        { id: 'route', kind: 'branch', cases: [{ when: 'price.total > 100', next: 'review' }], otherwise: 'done' },
        { id: 'review', kind: 'transform', set: { flagged: 'true' }, next: 'done' },
        { id: 'done', kind: 'end', output: { total: 'price.total' } },
        { id: 'orphan', kind: 'transform', set: {}, next: 'done' },
      ],
    } as unknown as WorkflowDefinition;
    expect(workflowNames(workflow, 0)).toEqual([{ name: 'order', detail: 'input: context' }]);
    expect(workflowNames(workflow, 2).map((n) => n.name)).toEqual(['order', 'price']);
    // "review" runs on one path to "done" only; a branch gives no value.
    expect(workflowNames(workflow, 3)).toEqual([
      { name: 'order', detail: 'input: context' },
      { name: 'price', detail: 'result of the rule step' },
    ]);
    // A step no run reaches reads what it could at the start.
    expect(workflowNames(workflow, 4).map((n) => n.name)).toEqual(['order']);
  });
});

describe('the console build', () => {
  it('keeps the editor out of the first load, in a chunk of its own, and ships one FEEL parser', async () => {
    const files = await buildConsole();
    const app = files.get('app.js')!.body.toString();
    const editorChunk = [...files.keys()].find((name) => /^code-editor-\w+\.js$/.test(name));
    expect(editorChunk).toBeDefined();
    // app.js only names the chunk, to import it; CodeMirror's view and its class names are not in it.
    expect(app).toContain(editorChunk);
    expect(app).not.toContain('cm-content');
    expect(files.get(editorChunk!)!.body.toString()).toContain('cm-content');
    // lezer-feel's keyword table, once: the editor's FEEL language reads the grammar the engine parses with, from the same chunk.
    const withGrammar = [...files].filter(([name, file]) => name.endsWith('.js') && file.body.toString().includes('satisfies:'));
    expect(withGrammar.map(([name]) => name)).toHaveLength(1);
  }, 60_000);
});

describe('matching brackets', () => {
  /** The brackets marked with the cursor just after the first bracket, and whether they are marked as a pair. */
  function marked(text: string, dialect: 'expression' | 'unaryTests') {
    const state = EditorState.create({ doc: text, extensions: feel({ dialect }) });
    ensureSyntaxTree(state, text.length);
    const at = text.search(/[[\](]/);
    const found = matchBrackets(state, at + 1, -1) ?? matchBrackets(state, at, 1)!;
    const match = withRanges(found, state);
    return { brackets: [match.start, ...(match.end ? [match.end] : [])].map(({ from, to }) => text.slice(from, to)).join(''), matched: match.matched };
  }

  it("pairs a range's ends, whatever their kinds", () => {
    expect(marked('(14..30]', 'unaryTests')).toEqual({ brackets: '(]', matched: true });
    expect(marked(']1..5[', 'unaryTests')).toEqual({ brackets: '][', matched: true });
    expect(marked('x in [1..10)', 'expression')).toEqual({ brackets: '[)', matched: true });
    expect(marked('[(1..2], 3]', 'unaryTests')).toEqual({ brackets: '[]', matched: true });
  });

  it('leaves unbalanced brackets unmatched, in a range too', () => {
    expect(marked('(1 + 2', 'expression').matched).toBe(false);
    expect(marked('(14..30', 'unaryTests').matched).toBe(false);
    expect(marked('(1 + 2]', 'expression').matched).toBe(false);
  });
});

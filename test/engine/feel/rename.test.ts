/** Renaming what FEEL reads: only reads in scope change, and the renamed text means what the old one did. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { freeNames } from '../../../lib/engine/feel/names.ts';
import { parseExpression } from '../../../lib/engine/feel/parse.ts';
import { renameReads } from '../../../lib/engine/feel/rename.ts';
import type { FeelContext } from '../../../lib/engine/feel/values.ts';
import { expressionCase, ours } from './feel-grammar.ts';

describe('renameReads', () => {
  it.each([
    ['a path from the name', 'quote.total > 100', 'offer.total > 100'],
    ['every read', 'quote.total + quote.tax', 'offer.total + offer.tax'],
    ['not a member of the same name', 'order.quote + quote', 'order.quote + offer'],
    ['not a string or a comment', '"quote" + string(quote) // quote', '"quote" + string(offer) // quote'],
    ['not a loop variable that hides it', 'quote + sum(for quote in quotes return quote)', 'offer + sum(for quote in quotes return quote)'],
    ['in the loop list, before the variable hides it', 'for quote in quote.lines return quote.amount', 'for quote in offer.lines return quote.amount'],
    ['not a context entry that hides it, nor its key', '{quote: 1, b: quote + 1}.b + quote', '{quote: 1, b: quote + 1}.b + offer'],
    ['in a context entry before its own', '{a: quote, quote: 2}.a', '{a: offer, quote: 2}.a'],
    ['in a filter condition', 'quotes[price < quote.max]', 'quotes[price < offer.max]'],
    ['in a quantifier', 'some q in quotes satisfies q < quote', 'some q in quotes satisfies q < offer'],
    ['keeping the spacing', 'if   quote  > 1 then quote else 0', 'if   offer  > 1 then offer else 0'],
  ])('renames %s', (_, text, expected) => {
    expect(renameReads(text, 'quote', 'offer', ['quote', 'quotes'])).toBe(expected);
  });

  it('renames names the grammar only reads whole when told them, both ways', () => {
    expect(renameReads('risk-score.value * 2', 'risk-score', 'fetch-quote', ['risk-score'])).toBe('fetch-quote.value * 2');
    expect(renameReads('lookup.price', 'lookup', 'fetch.quote', ['lookup'])).toBe('fetch.quote.price');
  });

  it('leaves the text as it is where the new name would be read otherwise, or the text does not parse', () => {
    // `x` is the loop's variable there: the rename would change what the body reads.
    expect(renameReads('for x in xs return x + quote', 'quote', 'x', ['quote', 'xs'])).toBe('for x in xs return x + quote');
    expect(renameReads('quote +', 'quote', 'offer', ['quote'])).toBe('quote +');
    expect(renameReads('other + 1', 'quote', 'offer', ['quote', 'other'])).toBe('other + 1');
  });

  /** The random inputs that no item of a filtered list has as an entry (where a condition would read the entry instead). */
  const renamable = ['n', 'm', 's', 't', 'z', 'ss', 'c', 'people', 'd', 'e', 'dt', 'et', 'tm', 'dur', 'ym', 'date of birth', 'monthly income'];

  it('means the same: a name the text reads, renamed, and the text answers on the renamed inputs what it did; renaming back restores it', () => {
    const outcome = (text: string, vars: FeelContext) => {
      try {
        return { value: ours(text, vars) };
      } catch (error) {
        return { error: (error as Error).message };
      }
    };
    fc.assert(
      fc.property(expressionCase, fc.nat(), ({ vars, text }, pick) => {
        const names = Object.keys(vars);
        const read = [...freeNames(parseExpression(text, names))].filter((name) => renamable.includes(name));
        fc.pre(read.length > 0);
        const name = read[pick % read.length]!;
        const renamed = renameReads(text, name, 'renamed', names);
        expect(renamed).not.toBe(text);
        const { [name]: value, ...rest } = vars;
        const renamedVars = { ...rest, renamed: value! };
        expect(outcome(renamed, renamedVars)).toEqual(outcome(text, vars));
        expect(renameReads(renamed, 'renamed', name, Object.keys(renamedVars))).toBe(text);
      }),
      { numRuns: 300 },
    );
  });
});

/**
 * The built-in functions' names and parameters, apart from their code
 * (./builtins.ts): the evaluator binds named arguments with them, and the
 * console's FEEL editor offers each function with its signature without
 * loading the evaluator. A parameter ending in `?` is optional, one ending in
 * `...` takes the rest; overloads are tried in order by argument count.
 */
export const builtinSignatures = {
  // Conversion
  string: [['from']],
  number: [['from', 'grouping separator?', 'decimal separator?']],
  // Strings
  substring: [['string', 'start position', 'length?']],
  'string length': [['string']],
  'upper case': [['string']],
  'lower case': [['string']],
  'substring before': [['string', 'match']],
  'substring after': [['string', 'match']],
  contains: [['string', 'match']],
  'starts with': [['string', 'match']],
  'ends with': [['string', 'match']],
  matches: [['input', 'pattern', 'flags?']],
  replace: [['input', 'pattern', 'replacement', 'flags?']],
  // The delimiter is a pattern, as DMN 1.5 says (XPath's fn:tokenize): `split("John  Doe", "\\s+")`.
  split: [['string', 'delimiter']],
  'string join': [['list', 'delimiter?']],
  // Numbers
  decimal: [['n', 'scale']],
  floor: [['n', 'scale?']],
  ceiling: [['n', 'scale?']],
  'round up': [['n', 'scale']],
  'round down': [['n', 'scale']],
  'round half up': [['n', 'scale']],
  'round half down': [['n', 'scale']],
  abs: [['n']],
  modulo: [['dividend', 'divisor']],
  sqrt: [['number']],
  log: [['number']],
  exp: [['number']],
  odd: [['number']],
  even: [['number']],
  // Lists
  'list contains': [['list', 'element']],
  count: [['list']],
  min: [['list'], ['c...']],
  max: [['list'], ['c...']],
  sum: [['list'], ['c...']],
  mean: [['list'], ['c...']],
  product: [['list'], ['c...']],
  median: [['list'], ['c...']],
  stddev: [['list'], ['c...']],
  mode: [['list'], ['c...']],
  all: [['list'], ['c...']],
  any: [['list'], ['c...']],
  sublist: [['list', 'start position', 'length?']],
  append: [['list', 'item...']],
  concatenate: [['list...']],
  'insert before': [['list', 'position', 'newItem']],
  remove: [['list', 'position']],
  // DMN 1.5 also takes a match function for the position; FEEL here has no function values to give it.
  'list replace': [['list', 'position', 'newItem']],
  reverse: [['list']],
  'index of': [['list', 'match']],
  union: [['list...']],
  'distinct values': [['list']],
  flatten: [['list']],
  // Booleans
  not: [['negand']],
  // Dates and times
  date: [['from'], ['year', 'month', 'day']],
  time: [['from'], ['hour', 'minute', 'second', 'offset?']],
  'date and time': [['from'], ['date', 'time']],
  duration: [['from']],
  'years and months duration': [['from', 'to']],
  now: [[]],
  today: [[]],
  'day of week': [['date']],
  'day of year': [['date']],
  'week of year': [['date']],
  'month of year': [['date']],
  'last day of month': [['date']],
  // Contexts
  'get value': [['m', 'key']],
  'get entries': [['m']],
  context: [['entries']],
  'context put': [
    ['context', 'key', 'value'],
    ['context', 'keys', 'value'],
  ],
  'context merge': [['contexts']],
  // Ranges
  range: [['from']],
} as const satisfies Record<string, readonly (readonly string[])[]>;

export type BuiltinName = keyof typeof builtinSignatures;

/** How much of a rule's coverage is named, where a table of 10,000 rows could make a list without end: apart, so that the route's text states them without loading the engine. */
export const coverageLimits = {
  /** Parts that no test case reaches named by a save's or a publish's warnings, one each; the rest are counted in one more. */
  maxUntestedWarnings: 10,
  /** Test cases named per part in GET .../coverage (each part's testCaseCount has them all). */
  maxTestCasesListed: 20,
} as const;

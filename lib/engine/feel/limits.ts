/** Bounds on FEEL text, checked before parsing, so that no input can exhaust the parser's time or stack. Kept apart so that schemas can state them without bundling the parser. */
export const feelLimits = { maxLength: 4000, maxDepth: 64 } as const;
